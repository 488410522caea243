/** Media file names: one plain name, never a path. */
import { badParameter } from '../http/errors.js';

/** Whether text holds a control character (U+0000-U+001F, U+007F). */
export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Longest accepted file name. */
export const MAX_FILENAME = 200;

/**
 * Checks a media file name: 1 to 200 characters, no `/` or `\`, no `..`, no control characters,
 * not starting with a dot, ending in `.wav` or `.mp4` (what the platform's designer takes). 400
 * naming `parameter` otherwise.
 */
export function checkFilename(name: string | undefined, parameter = 'filename'): string {
  if (name === undefined || name === '') throw badParameter(parameter, 'is required');
  if (name.length > MAX_FILENAME) throw badParameter(parameter, `must be at most ${MAX_FILENAME} characters`);
  if (hasControlCharacters(name)) throw badParameter(parameter, 'must not contain control characters');
  if (/[/\\]/.test(name)) throw badParameter(parameter, 'must be a file name, not a path');
  if (name.includes('..') || name.startsWith('.'))
    throw badParameter(parameter, 'must not start with a dot or contain ..');
  if (!/\.(wav|mp4)$/i.test(name)) throw badParameter(parameter, 'must end in .wav or .mp4');
  return name;
}
