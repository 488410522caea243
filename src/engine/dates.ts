const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (n: number): string => (n < 10 ? '0' + n : String(n));

// Calls created together share their second: the last one formatted is kept.
let lastSecond = Number.NaN;
let lastText = '';

/** RFC 2822 date in UTC with a numeric offset: `Mon, 01 Jan 2024 00:00:00 +0000`. */
export function rfc2822(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second === lastSecond) return lastText;
  const d = new Date(second * 1000);
  lastText =
    `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
  lastSecond = second;
  return lastText;
}

let lastIsoMs = Number.NaN;
let lastIso = '';

/**
 * ISO 8601 with milliseconds and `Z`. Calls created together share their instant (every request
 * of a call sends it as `CallTimestamp`): the last one formatted is kept.
 */
export function iso(ms: number): string {
  if (ms !== lastIsoMs) {
    lastIso = new Date(ms).toISOString();
    lastIsoMs = ms;
  }
  return lastIso;
}
