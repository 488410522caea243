/**
 * Languages an announcement may speak in: those of the platform's Say verb (its text-to-speech
 * engine's codes: short codes such as `en`, `fr`, `de`, and regional ones such as `en-gb`,
 * `es-mx`, `zh-cn`). Matched regardless of case.
 */
export const SAY_LANGUAGES: readonly string[] = [
  'bf',
  'bp',
  'ca',
  'cf',
  'cs',
  'da',
  'de',
  'dn',
  'du',
  'en',
  'en-au',
  'en-ca',
  'en-gb',
  'en-in',
  'en-us',
  'es',
  'es-es',
  'es-mx',
  'fi',
  'fr',
  'fr-ca',
  'fr-fr',
  'gr',
  'it',
  'ja',
  'ko',
  'nb',
  'nl',
  'no',
  'pl',
  'pt',
  'pt-br',
  'pt-pt',
  'ru',
  'sv',
  'tr',
  'zh',
  'zh-cn',
  'zh-hk',
  'zh-tw',
];

const KNOWN = new Set(SAY_LANGUAGES);

/** The language as stored (lower case), or undefined when the Say verb does not know it. */
export function sayLanguage(value: string): string | undefined {
  const lower = value.trim().toLowerCase();
  return KNOWN.has(lower) ? lower : undefined;
}
