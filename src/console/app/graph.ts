/**
 * Draws the Mermaid flowcharts `rcml graph` prints as SVG: the dialect's subset that the module
 * graph uses (nodes `id["label"]`, `id(["label"])`, `id{{"label"}}`; links `-->|"label"|` and
 * `-.->|"label"|`; `classDef` fill and stroke), laid out by dagre. Mermaid itself would add
 * megabytes to the page for the same picture.
 */
import dagre from '@dagrejs/dagre';
import { s } from './dom.js';

type Shape = 'rect' | 'stadium' | 'hexagon';
interface GraphNode {
  id: string;
  label: string;
  shape: Shape;
  className?: string;
}
interface GraphEdge {
  from: string;
  to: string;
  label: string;
  dashed: boolean;
}
export interface Flowchart {
  nodes: Map<string, GraphNode>;
  edges: GraphEdge[];
  classes: Map<string, { fill?: string; stroke?: string }>;
}

const NAMED: Readonly<Record<string, string>> = { quot: '"', lt: '<', gt: '>', amp: '&' };

/** A quoted label's text, its entity codes (`#quot;`, `#10;`) decoded. */
const unquote = (text: string) =>
  text
    .replace(/^"|"$/g, '')
    .replace(/#(quot|lt|gt|amp|\d{1,6});/g, (_, code: string) =>
      code in NAMED ? NAMED[code] : String.fromCodePoint(Math.min(Number(code), 0x10ffff)),
    );

const NODE = /^(\w+)(\(\["(.*)"\]\)|\["(.*)"\]|\{\{"(.*)"\}\})$/;
const EDGE = /^(\w+)\s+(-->|-\.->)\|("[^"]*")\|\s+(\w+)$/;

/** Parses the flowchart; a line it does not know is an error naming the line. */
export function parseFlowchart(text: string): Flowchart {
  const chart: Flowchart = { nodes: new Map(), edges: [], classes: new Map() };
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('flowchart ') || line.startsWith('%%')) return;
    let m = NODE.exec(line);
    if (m) {
      const shape: Shape = m[3] !== undefined ? 'stadium' : m[5] !== undefined ? 'hexagon' : 'rect';
      chart.nodes.set(m[1], { id: m[1], label: unquote(m[3] ?? m[4] ?? m[5] ?? ''), shape });
      return;
    }
    m = EDGE.exec(line);
    if (m) {
      chart.edges.push({ from: m[1], to: m[4], label: unquote(m[3]), dashed: m[2] === '-.->' });
      return;
    }
    m = /^classDef (\w+) (.*)$/.exec(line);
    if (m) {
      const style: { fill?: string; stroke?: string } = {};
      for (const part of m[2].split(',')) {
        const [k, v] = part.split(':');
        if (k === 'fill' || k === 'stroke') style[k] = v;
      }
      chart.classes.set(m[1], style);
      return;
    }
    m = /^class ([\w,]+) (\w+)$/.exec(line);
    if (m) {
      for (const id of m[1].split(',')) {
        const node = chart.nodes.get(id);
        if (node) node.className = m[2];
      }
      return;
    }
    throw new Error(`graph line ${i + 1}: not understood: ${line}`);
  });
  for (const e of chart.edges) {
    for (const id of [e.from, e.to]) {
      if (!chart.nodes.has(id)) chart.nodes.set(id, { id, label: id, shape: 'rect' });
    }
  }
  return chart;
}

const CHAR = 7.2;

/** The flowchart as an SVG picture with a title. */
export function renderMermaid(text: string, title: string): SVGSVGElement {
  const chart = parseFlowchart(text);
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 40, ranksep: 60, edgesep: 20, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of chart.nodes.values()) g.setNode(n.id, { width: n.label.length * CHAR + 30, height: 38 });
  chart.edges.forEach((e, i) => {
    g.setEdge(e.from, e.to, { width: e.label.length * 6.5 + 8, height: 16, labelpos: 'c' }, `e${i}`);
  });
  dagre.layout(g);
  const size = g.graph();
  const width = Math.ceil(size.width ?? 100);
  const height = Math.ceil(size.height ?? 100);
  const svg = s('svg', {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: 'img',
    'aria-labelledby': 'graph-title',
    class: 'graph',
  });
  svg.append(
    s('title', { id: 'graph-title' }, title),
    s(
      'defs',
      {},
      s(
        'marker',
        {
          id: 'arrow',
          viewBox: '0 0 10 10',
          refX: 10,
          refY: 5,
          markerWidth: 8,
          markerHeight: 8,
          orient: 'auto-start-reverse',
        },
        s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }),
      ),
    ),
  );
  chart.edges.forEach((e, i) => {
    const laid = g.edge({ v: e.from, w: e.to, name: `e${i}` });
    const points = laid.points ?? [];
    const d = points
      .map(
        (p: { x: number; y: number }, k: number) =>
          `${k === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`,
      )
      .join(' ');
    svg.append(
      s(
        'g',
        { class: 'edge' },
        s('path', { d, class: e.dashed ? 'link dashed' : 'link', 'marker-end': 'url(#arrow)' }),
        e.label
          ? s(
              'text',
              { x: laid.x ?? 0, y: (laid.y ?? 0) + 4, 'text-anchor': 'middle', class: 'edge-label' },
              e.label,
            )
          : null,
      ),
    );
  });
  for (const n of chart.nodes.values()) {
    const laid = g.node(n.id);
    const x = laid.x - laid.width / 2;
    const y = laid.y - laid.height / 2;
    const style = n.className ? chart.classes.get(n.className) : undefined;
    const paint = { fill: style?.fill, stroke: style?.stroke };
    const shape =
      n.shape === 'hexagon'
        ? s('polygon', {
            points: `${x + 12},${y} ${x + laid.width - 12},${y} ${x + laid.width},${laid.y} ${x + laid.width - 12},${y + laid.height} ${x + 12},${y + laid.height} ${x},${laid.y}`,
            ...paint,
          })
        : s('rect', {
            x,
            y,
            width: laid.width,
            height: laid.height,
            rx: n.shape === 'stadium' ? laid.height / 2 : 4,
            ...paint,
          });
    svg.append(
      s(
        'g',
        { class: `node ${n.shape}`, 'data-id': n.id },
        shape,
        s('text', { x: laid.x, y: laid.y + 4, 'text-anchor': 'middle' }, n.label),
      ),
    );
  }
  return svg;
}
