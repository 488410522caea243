/** Announcement audio checks: the engine's WAV check (PCM, A-law, µ-law) and safe file names. */
export { checkWav, type WavCheck } from '../../engine/wav-check.js';

/**
 * A safe file name for an upload: its last path segment, characters other than letters,
 * digits, `.`, `-` and `_` replaced by `_`, no leading dots, at most 100 characters, ending
 * in `.wav` (or `ext`). Never empty.
 */
export function sanitizeFileName(raw: string, ext: 'wav' | 'mp4' = 'wav'): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  const name = last
    .replace(/\.(wav|mp4)$/i, '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+/, '')
    .slice(0, 96)
    .replace(/[._-]+$/, '');
  return `${name === '' ? 'announcement' : name}.${ext}`;
}
