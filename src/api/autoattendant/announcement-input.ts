/**
 * Validation of announcement fields, in the platform's order of codes: type (520), the say fields
 * present (519), language (521), voice (522; blank means the default, Man).
 */
import { z } from 'zod';
import type { AnnouncementRecord, AnnouncementType } from '../../store/enterprise/types.js';
import { specError } from '../enterprise/errors.js';
import { sayLanguage } from './languages.js';

const text = (max: number) => z.string().max(max, `at most ${max} characters`);

/** Shape of a create or update body (values are checked afterwards, with the platform's codes). */
export const announcementFields = z.object({
  name: text(200).optional(),
  description: text(2000).optional(),
  enterpriseSid: z.string().optional(),
  type: z.string().optional(),
  body: text(4096).optional(),
  language: z.string().optional(),
  voice: z.string().optional(),
});
export type AnnouncementFields = z.infer<typeof announcementFields>;

export const DEFAULT_VOICE = 'Man';

/** The say/play fields of an announcement after checking them. */
export function checkSpeech(
  fields: { type?: string; body?: string; language?: string; voice?: string },
  data: unknown,
): Pick<AnnouncementRecord, 'type' | 'body' | 'language' | 'voice'> {
  const type = fields.type?.trim().toLowerCase();
  if (type !== 'say' && type !== 'play') throw specError('announcementType', data);
  if (type === 'play') return { type: type as AnnouncementType, body: '', language: '', voice: '' };
  const body = fields.body?.trim() ?? '';
  const rawLanguage = fields.language?.trim() ?? '';
  if (body === '' || rawLanguage === '') {
    const missing = [body === '' && 'body', rawLanguage === '' && 'language'].filter(Boolean).join(', ');
    throw specError('sayParametersMissing', data, `missing ${missing}`);
  }
  // Checked in any case, kept as the client wrote it (the platform echoes `en-GB` as `en-GB`).
  if (!sayLanguage(rawLanguage)) throw specError('announcementLanguage', data, rawLanguage);
  const language = rawLanguage;
  const rawVoice = fields.voice?.trim() ?? '';
  const voice = rawVoice === '' ? DEFAULT_VOICE : { man: 'Man', woman: 'Woman' }[rawVoice.toLowerCase()];
  if (!voice) throw specError('announcementVoice', data, rawVoice);
  return { type: 'say', body, language, voice };
}
