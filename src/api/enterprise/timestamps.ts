import { iso8601 } from '../http/dates.js';

/** `YYYY-MM-DDTHH:MM:SS+0000`, the timestamps of the enterprise areas (always UTC). */
export function isoSeconds(ms: number): string {
  return `${iso8601(Math.floor(ms / 1000) * 1000).slice(0, -5)}+0000`;
}
