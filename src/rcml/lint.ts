import type { Diagnostic, RcmlDocument } from './model.js';

/**
 * Advice beyond parsing, for `rcml validate`: documents that run but likely not as meant.
 * `rcml.gather-no-action`: a Gather without `action` discards its input (the platform moves on
 * to the next verb, BaseVoiceInterpreter's FinishGathering).
 */
export function lintRcml(document: RcmlDocument): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const verb of document.verbs) {
    if (verb.verb === 'Gather' && !verb.action) {
      out.push({
        code: 'rcml.gather-no-action',
        severity: 'warning',
        message: '<Gather> has no action: the input is discarded and the next verb runs',
        line: verb.pos?.line ?? 1,
        column: verb.pos?.column ?? 1,
        path: 'Gather',
      });
    }
  }
  return out;
}
