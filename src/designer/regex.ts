/**
 * The regexes of a designer project (speech keys, validation patterns, control `matches` and
 * `capture`) run on text the caller controls, so they run on a bounded engine: re2js, RE2's
 * semantics in plain JavaScript, whose matching time is linear in the text whatever the
 * pattern (a backtracking engine takes exponential time on `(a+)+b`). RE2 has no lookaround
 * and no backreferences; a pattern using them, or longer than {@link MAX_PATTERN_LENGTH}, cannot
 * run, and lint and the save path say so. Text longer than {@link MAX_TEXT_LENGTH} never matches.
 */
import { RE2JS } from 're2js';

/** Longest pattern compiled, after `$` variables are expanded. */
export const MAX_PATTERN_LENGTH = 1000;

/**
 * Longest text a pattern is tried on; longer text never matches. Caller input (digits, a speech
 * result) is far shorter; the cap bounds the worst pattern within the length limit
 * (`[\p{L}\p{N}]{1000}`) to about 10 ms a match on a 2-core machine.
 */
export const MAX_TEXT_LENGTH = 4096;

/** A compiled whole-text pattern, or why the bounded engine cannot run it. */
export type BoundedRegex = { ok: true; regex: RE2JS } | { ok: false; problem: string };

// Projects evaluate the same few patterns on every request: compile each once.
const CACHE_SIZE = 500;
const cache = new Map<string, BoundedRegex>();

/** `pattern` compiled to match whole texts (as `^(?:pattern)$`). */
export function compileBounded(pattern: string): BoundedRegex {
  const cached = cache.get(pattern);
  if (cached) return cached;
  const compiled = compile(pattern);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, compiled);
  return compiled;
}

function compile(pattern: string): BoundedRegex {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return { ok: false, problem: `the pattern is longer than ${MAX_PATTERN_LENGTH} characters` };
  }
  try {
    return { ok: true, regex: RE2JS.compile(`^(?:${pattern})$`) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      problem: `${message} (patterns run with RE2 syntax: no lookaround, no backreferences)`,
    };
  }
}

/** Why the bounded engine cannot run `pattern`, or undefined when it can. */
export function boundedRegexProblem(pattern: string): string | undefined {
  const compiled = compileBounded(pattern);
  return compiled.ok ? undefined : compiled.problem;
}

/** Whether `regex` matches the whole `text`; text over {@link MAX_TEXT_LENGTH} never does. */
export function matchesWhole(regex: RE2JS, text: string): boolean {
  return text.length <= MAX_TEXT_LENGTH && regex.matches(text);
}

/**
 * The groups of a whole match of `text` (index 0 the whole text), or null when it does not
 * match (text over {@link MAX_TEXT_LENGTH} never does). Groups that took part in no match are
 * undefined.
 */
export function captureWhole(regex: RE2JS, text: string): Array<string | undefined> | null {
  if (text.length > MAX_TEXT_LENGTH) return null;
  const matcher = regex.matcher(text);
  if (!matcher.matches()) return null;
  const groups: Array<string | undefined> = [];
  for (let g = 0; g <= matcher.groupCount(); g++) groups.push(matcher.group(g) ?? undefined);
  return groups;
}
