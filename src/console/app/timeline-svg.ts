/** Draws a call's timeline: one lane per kind of thing, time left to right, a mark per happening. */
import { h, s } from './dom.js';

/** Something that happened in a call, at a time (or over a span), in a lane. */
export interface Mark {
  lane: Lane;
  at: number;
  end?: number;
  label: string;
  detail: string;
  tone: 'ok' | 'bad' | 'warn' | 'info';
}

export const LANES = [
  'Status',
  'Verbs',
  'Requests',
  'Legs & bridges',
  'Conference & queue',
  'Input & gathers',
  'Recordings',
  'Notifications',
] as const;
export type Lane = (typeof LANES)[number];

const WIDTH = 960;
const LABELS = 150;
const LANE_HEIGHT = 34;
const TOP = 24;

/** Round steps for the time axis, in seconds. */
const STEPS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600];

export function drawTimeline(marks: Mark[], from: number, to: number, title: string): SVGSVGElement {
  const span = Math.max(to - from, 1000);
  const x = (t: number) => LABELS + ((t - from) / span) * (WIDTH - LABELS - 90);
  const height = TOP + LANES.length * LANE_HEIGHT + 10;
  const svg = s('svg', {
    viewBox: `0 0 ${WIDTH} ${height}`,
    role: 'img',
    'aria-labelledby': 'timeline-title',
    class: 'timeline',
  });
  svg.append(s('title', { id: 'timeline-title' }, title));
  const seconds = span / 1000;
  const step = STEPS.find((st) => seconds / st <= 10) ?? 3600;
  for (let t = 0; t <= seconds + 1e-9; t += step) {
    const px = x(from + t * 1000);
    svg.append(
      s('line', { x1: px, x2: px, y1: TOP - 6, y2: height - 10, class: 'grid' }),
      s('text', { x: px, y: TOP - 10, class: 'tick', 'text-anchor': 'middle' }, `${+t.toFixed(1)} s`),
    );
  }
  LANES.forEach((lane, i) => {
    const y = TOP + i * LANE_HEIGHT;
    svg.append(
      s('rect', { x: 0, y, width: WIDTH, height: LANE_HEIGHT, class: i % 2 ? 'lane odd' : 'lane' }),
      s('text', { x: 8, y: y + LANE_HEIGHT / 2 + 4, class: 'lane-label' }, lane),
    );
  });
  // Labels of points in one lane alternate above and below the middle, so neighbours overlap less.
  const nth = new Map<Lane, number>();
  for (const m of marks) {
    const lane = LANES.indexOf(m.lane);
    const mid = TOP + lane * LANE_HEIGHT + LANE_HEIGHT / 2;
    const k = nth.get(m.lane) ?? 0;
    nth.set(m.lane, k + 1);
    const g = s('g', { class: `mark tone-${m.tone}` }, s('title', {}, `${m.label}: ${m.detail}`));
    if (m.end !== undefined && m.end > m.at) {
      const w = Math.max(x(m.end) - x(m.at), 2);
      g.append(s('rect', { x: x(m.at), y: mid - 8, width: w, height: 16, rx: 3 }));
      if (w > m.label.length * 6.5)
        g.append(s('text', { x: x(m.at) + 4, y: mid + 4, class: 'bar-label' }, m.label));
    } else {
      g.append(
        s('circle', { cx: x(m.at), cy: mid, r: 5 }),
        s('text', { x: x(m.at) + 7, y: k % 2 ? mid + 13 : mid - 5, class: 'point-label' }, m.label),
      );
    }
    svg.append(g);
  }
  return svg;
}

/** The same marks as a table, in time order: what the picture shows, for every reader. */
export function marksTable(marks: Mark[], from: number): HTMLTableElement {
  const sorted = [...marks].sort((a, b) => a.at - b.at);
  return h(
    'table',
    { class: 'marks' },
    h('caption', {}, 'Everything on the timeline, in order'),
    h(
      'thead',
      {},
      h('tr', {}, ...['Time', 'Lane', 'What', 'Detail'].map((t) => h('th', { scope: 'col' }, t))),
    ),
    h(
      'tbody',
      {},
      ...sorted.map((m) =>
        h(
          'tr',
          {},
          h('td', {}, `+${((m.at - from) / 1000).toFixed(2)} s`),
          h('td', {}, m.lane),
          h('td', {}, m.label),
          h('td', { class: 'detail' }, m.detail),
        ),
      ),
    ),
  );
}
