const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (n: number): string => (n < 10 ? '0' + n : String(n));

/** RFC 2822 date in UTC with a numeric offset: `Mon, 01 Jan 2024 00:00:00 +0000`. */
export function rfc2822(ms: number): string {
  const d = new Date(ms);
  return (
    `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`
  );
}

/** ISO 8601 with milliseconds and `Z`. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
