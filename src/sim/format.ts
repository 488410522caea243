import type { Trace } from './trace.js';

const secs = (at: number): string => at.toFixed(3).padStart(9);

/** A human timeline of a trace (every event in the order it happened), then a summary of calls. */
export function formatTrace(trace: Trace): string {
  const short = new Map(trace.calls.map((c, i) => [c.sid, `call${i + 1}`]));
  const name = (sid: string | null): string => (sid ? (short.get(sid) ?? sid) : '-');
  const out = [`Scenario: seed ${trace.seed}, ${trace.until} s from ${trace.epoch}`, '', 'Timeline:'];
  for (const line of trace.timeline)
    out.push(`${secs(line.at)}  ${name(line.callSid).padEnd(6)} ${line.event}`);
  out.push('', 'Calls:');
  for (const c of trace.calls) {
    const parent = c.parentCallSid ? ` parent ${c.parentCallSid}` : '';
    out.push(
      `  ${name(c.sid)} ${c.sid} ${c.direction} ${c.from} -> ${c.to}${parent}: ${c.status}, ` +
        `start ${c.startTime ?? '-'}, end ${c.endTime ?? '-'}, duration ${c.duration ?? '-'} s`,
    );
  }
  out.push(
    '',
    `${trace.requests.length} requests, ${trace.gathers.length} gathers, ${trace.recordings.length} recordings, ` +
      `${trace.messages.length} messages, ${trace.notifications.length} notifications`,
  );
  return out.join('\n') + '\n';
}
