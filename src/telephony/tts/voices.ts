import type { SpeechRequest } from './port.js';

/** espeak-ng's languages by lower-case tag, with the variants RCML's tags most often mean. */
const ALIASES: Record<string, string> = {
  en: 'en-us',
  'en-au': 'en-gb',
  fr: 'fr-fr',
  'fr-ca': 'fr-fr',
  zh: 'cmn',
  'zh-cn': 'cmn',
  'zh-tw': 'cmn',
  'zh-hk': 'yue',
  'es-mx': 'es-419',
  'es-us': 'es-419',
  'pt-pt': 'pt',
};

/**
 * The espeak-ng voice of a request: its language (exact tag, a known alias, or the primary
 * subtag; `en-us` when espeak-ng has none of them) plus a female or male variant.
 */
export function espeakVoice(request: SpeechRequest, known: ReadonlySet<string>): string {
  const tag = request.language.trim().toLowerCase().replace(/_/g, '-');
  const primary = tag.split('-')[0];
  const candidates = [ALIASES[tag], tag, ALIASES[primary], primary];
  const language = candidates.find((c) => c !== undefined && known.has(c)) ?? 'en-us';
  return `${language}+${request.voice === 'woman' ? 'f3' : 'm3'}`;
}
