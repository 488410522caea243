/** Element names the language knows, used to tell a misplaced verb from an unknown element. */
export const VERB_NAMES: ReadonlySet<string> = new Set([
  'Say',
  'Play',
  'Pause',
  'Gather',
  'Record',
  'Dial',
  'Enqueue',
  'Leave',
  'Redirect',
  'Hold',
  'Resume',
  'Hangup',
  'Reject',
  'Sms',
  'Email',
  'Fax',
]);

export const NOUN_NAMES: ReadonlySet<string> = new Set(['Number', 'Client', 'Sip', 'Conference', 'Queue']);

/** True for any element the language defines, including the `Response` root. */
export function isKnownElement(name: string): boolean {
  return VERB_NAMES.has(name) || NOUN_NAMES.has(name) || name === 'Response';
}
