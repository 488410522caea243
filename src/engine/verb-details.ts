import type { DialNoun, Verb } from '../rcml/model.js';
import { redactUrl } from './fetch/credentials.js';

/** What a verb offered the caller, for traces: its text, URL, targets and scalar attributes. */
export type VerbDetails = Record<string, string | number | boolean | string[]>;

function target(noun: DialNoun): string {
  switch (noun.noun) {
    case 'Number':
      return noun.number;
    case 'Client':
      return `client:${noun.name}`;
    case 'Sip':
      return noun.uri;
    case 'Conference':
      return `conference:${noun.name}`;
    case 'Queue':
      return `queue:${noun.name}`;
  }
}

/**
 * The details of a verb as written: every scalar attribute (Say text, Play URL, Gather
 * `numDigits`, `action`...), Dial's targets as `+1555`, `client:x`, `sip:...`,
 * `conference:room`, `queue:name`. Nested prompts are reported as verbs of their own. URL
 * passwords show as `***`, as everywhere in events.
 */
export function verbDetails(verb: Verb | { verb: string }): VerbDetails {
  const out: VerbDetails = {};
  for (const [key, value] of Object.entries(verb)) {
    if (key === 'verb' || key === 'pos' || key === 'password') continue;
    if (typeof value === 'string') out[key] = redactUrl(value);
    else if (typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  }
  if (verb.verb === 'Dial' && 'nouns' in verb) out.targets = verb.nouns.map((n) => redactUrl(target(n)));
  return out;
}
