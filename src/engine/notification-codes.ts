/**
 * Numeric codes of the notifications the engine writes on its own account (document warnings
 * of this library's parser, the engine's own warnings), in the platform's ranges: 12xxx for
 * documents, 13xxx per verb, 14xxx for messages and queues, 21xxx for numbers. The platform's
 * own codes (11205, 13612, ...) are used as they are. docs/engine.md lists every one.
 */
export const NOTIFICATION_CODES: { readonly [libraryCode: string]: string } = {
  // Documents that cannot run (the document itself is reported as 12100).
  'xml.malformed': '12100',
  'rcml.dtd': '12100',
  'rcml.too-many-attributes': '12100',
  'rcml.too-large': '12100',
  'rcml.internal': '12100',
  // Documents that run, with warnings.
  'rcml.root': '12201',
  'rcml.nesting': '12202',
  'rcml.required': '12203',
  'rcml.unknown-verb': '12210',
  'rcml.unknown-noun': '12211',
  'rcml.unknown-element': '12212',
  'rcml.unknown-attribute': '12213',
  'rcml.unexpected-text': '12214',
  'rcml.invalid-attribute': '12215',
  'rcml.gather-no-action': '12216',
  // The interpreter itself failed: the call ends.
  'engine.internal': '12400',
  // Verbs.
  'engine.conference-full': '13237',
  'engine.dial-queue-record': '13241',
  'engine.reject-answered': '13820',
  // Queues.
  'engine.leave-outside-queue': '14301',
  'engine.queue-verb': '14302',
  'engine.queue-error': '14303',
  'engine.queue-store': '14304',
  'engine.queue-redirects': '14305',
  'engine.queue-wait-empty': '14306',
  // Numbers.
  'engine.unknown-number': '21403',
};

/** Code given to a library code missing from the table (none should be). */
export const UNLISTED_CODE = '12200';

/**
 * The numeric code of a notification and its message: a library code is replaced by its number
 * and kept at the head of the message (`rcml.unknown-verb: ...`), so nothing is lost.
 */
export function numericNotification(code: string, message: string): { code: string; message: string } {
  if (/^\d+$/.test(code)) return { code, message };
  const numeric = Object.hasOwn(NOTIFICATION_CODES, code) ? NOTIFICATION_CODES[code] : UNLISTED_CODE;
  return { code: numeric, message: `${code}: ${message}` };
}
