import type { LoadReport, LoadSecond } from './report.js';
import type { LatencySummary } from './stats.js';

/** Escapes text for HTML. */
function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

interface Series {
  name: string;
  color: string;
  values: number[];
}

const W = 720;
const H = 220;
const PAD = { left: 56, right: 16, top: 16, bottom: 32 };

/** A round step for about four grid lines up to `max`: 1, 2, 2.5 or 5 times a power of ten. */
export function niceStep(max: number): number {
  const raw = Math.max(max, 1e-9) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10;
  return step * power;
}

/** A line chart as inline SVG: one polyline per series over the run's seconds. */
function lineChart(
  title: string,
  unit: string,
  seconds: LoadSecond[],
  series: Series[],
  axis: string,
): string {
  const n = Math.max(seconds.length, 1);
  const step = niceStep(Math.max(...series.flatMap((s) => s.values), 0));
  const max = step * Math.max(1, Math.ceil(Math.max(...series.flatMap((s) => s.values), 0) / step));
  const x = (i: number): number =>
    PAD.left + (n === 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (n - 1));
  const y = (v: number): number => PAD.top + (1 - v / max) * (H - PAD.top - PAD.bottom);
  const lines = Math.round(max / step);
  const grid = Array.from({ length: lines + 1 }, (_, i) => i * step)
    .map((v) => {
      // Round steps print without float noise: 0.25, 2.5, 50.
      const label = Number(v.toPrecision(6)).toString();
      return `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}" class="grid"/><text x="${PAD.left - 6}" y="${y(v) + 4}" class="tick" text-anchor="end">${label}</text>`;
    })
    .join('');
  const ticks = seconds
    .filter((_, i) => n <= 12 || i % Math.ceil(n / 12) === 0)
    .map(
      (s) =>
        `<text x="${x(s.second)}" y="${H - PAD.bottom + 16}" class="tick" text-anchor="middle">${s.second}s</text>`,
    )
    .join('');
  const polylines = series
    .map((s) => {
      const points = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
      const dots =
        s.values.length === 1 ? `<circle cx="${x(0)}" cy="${y(s.values[0]!)}" r="4" fill="${s.color}"/>` : '';
      return `<polyline points="${points}" fill="none" stroke="${s.color}" stroke-width="2"/>${dots}`;
    })
    .join('');
  const legend = series
    .map(
      (s, i) =>
        `<rect x="${PAD.left + i * 150}" y="${H - 10}" width="10" height="10" fill="${s.color}"/><text x="${PAD.left + 14 + i * 150}" y="${H - 1}" class="tick">${esc(s.name)}</text>`,
    )
    .join('');
  return `<figure><figcaption>${esc(title)} (${esc(unit)}, over ${esc(axis)})</figcaption><svg viewBox="0 0 ${W} ${H + 12}" width="${W}" height="${H + 12}" role="img" aria-label="${esc(title)}">${grid}${ticks}${polylines}${legend}</svg></figure>`;
}

function latencyTable(title: string, rows: Record<string, LatencySummary>): string {
  const body = Object.entries(rows)
    .map(
      ([k, s]) =>
        `<tr><td>${esc(k)}</td><td>${s.count}</td><td>${s.p50.toFixed(1)}</td><td>${s.p90.toFixed(1)}</td><td>${s.p99.toFixed(1)}</td><td>${s.max.toFixed(1)}</td></tr>`,
    )
    .join('');
  return `<h2>${esc(title)}</h2><table><thead><tr><th></th><th>count</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>max ms</th></tr></thead><tbody>${body}</tbody></table>`;
}

function counts(title: string, rows: Record<string, number>): string {
  const entries = Object.entries(rows);
  const body = entries.length
    ? entries.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${v}</td></tr>`).join('')
    : '<tr><td colspan="2">none</td></tr>';
  return `<h2>${esc(title)}</h2><table><tbody>${body}</tbody></table>`;
}

/** The report as one self-contained HTML page (inline CSS and SVG charts, no script, no network). */
export function loadReportHtml(r: LoadReport): string {
  const t = r.timeline;
  const axis = r.clock === 'virtual' ? 'virtual seconds of the engine clock' : 'seconds of wall time';
  const lag = r.engine.eventLoopLag;
  const summary = [
    ['calls started', r.calls.started],
    ['calls ended', r.calls.ended],
    ['calls dropped', r.calls.dropped],
    ...(r.calls.droppedReason ? [['why dropped', r.calls.droppedReason]] : []),
    ['calls/s', r.calls.perSecond],
    ['requests/s', r.requests.perSecond],
    ['p50 / p99 latency', `${r.latency.all.p50.toFixed(1)} / ${r.latency.all.p99.toFixed(1)} ms`],
    ['errors', r.errors.total],
    ['engine CPU', `${r.engine.cpuPercent}%`],
    ['heap max', `${r.engine.heapUsedMaxMb} MB`],
    ['event-loop lag p99', `${lag.p99} ms`],
  ]
    .map(
      ([k, v]) =>
        `<div class="card"><div class="k">${esc(String(k))}</div><div class="v">${esc(String(v))}</div></div>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rcml load report: ${esc(r.target)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
.meta{color:#555;margin-bottom:16px}
.cards{display:flex;flex-wrap:wrap;gap:8px}.card{border:1px solid #ddd;border-radius:6px;padding:8px 12px;min-width:120px}
.k{color:#666;font-size:12px}.v{font-size:18px;font-weight:600}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}
figure{margin:16px 0}figcaption{font-weight:600;margin-bottom:4px}
.grid{stroke:#eee}.tick{font-size:11px;fill:#666}
</style></head><body>
<h1>rcml load report</h1>
<div class="meta">${esc(r.target)} &middot; ${r.direction} &middot; ${r.clock} clock &middot; ${r.wallSeconds} s${r.interrupted ? ' &middot; <strong>interrupted</strong>' : ''}</div>
<div class="cards">${summary}</div>
${lineChart(
  'Webhook latency over time',
  'ms',
  t,
  [
    { name: 'p50', color: '#1f77b4', values: t.map((s) => s.p50) },
    { name: 'p99', color: '#d62728', values: t.map((s) => s.p99) },
  ],
  axis,
)}
${lineChart('Webhook requests', 'per second', t, [{ name: 'requests', color: '#2ca02c', values: t.map((s) => s.requests) }], axis)}
${lineChart(
  'Calls and errors',
  'per second',
  t,
  [
    { name: 'calls started', color: '#ff7f0e', values: t.map((s) => s.callsStarted) },
    { name: 'calls ended', color: '#9467bd', values: t.map((s) => s.callsEnded) },
    { name: 'errors', color: '#d62728', values: t.map((s) => s.errors) },
  ],
  axis,
)}
${latencyTable('Latency by request kind', { all: r.latency.all, ...r.latency.byKind })}
${latencyTable('Latency by URL path', r.latency.byPath)}
${counts('Final call statuses', r.calls.statuses)}
${counts('Errors by kind', r.errors.byKind)}
${counts('Error notifications by code', r.errors.notifications)}
</body></html>
`;
}
