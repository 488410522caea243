/**
 * Attribute rules: each verb's schema is a table of these, one per attribute. A rule turns the
 * raw attribute text into a typed value, or `undefined` when the value is invalid; the reader
 * then warns with the rule's code and the verb falls back to its default. Plain checks rather
 * than zod keep parsing within the throughput budget (one document per call step).
 */
import type { CallProgressEvent, HttpMethod } from '../model.js';

export interface AttrRule<T> {
  read(raw: string): T | undefined;
  /** Platform code (13xxx...) or `rcml.invalid-attribute`. */
  code: string;
  /** What a valid value looks like, for messages. */
  expected: string;
  /** Value an invalid one stands for (the platform's), instead of leaving the default to apply. */
  fallback?: T;
}

/** One rule per optional attribute of `A`. */
export type AttrRules<A> = { readonly [K in keyof A]-?: AttrRule<NonNullable<A[K]>> };

export const INVALID_ATTRIBUTE = 'rcml.invalid-attribute';

/** Any text, kept as written. */
export function text(): AttrRule<string> {
  return { read: (raw) => raw, code: INVALID_ATTRIBUTE, expected: 'text' };
}

/** A whole number >= `min` (surrounding spaces allowed). */
export function int(min: number, code = INVALID_ATTRIBUTE): AttrRule<number> {
  return {
    read(raw) {
      const s = raw.trim();
      if (!/^\+?\d{1,9}$/.test(s)) return undefined;
      const value = Number(s);
      return value >= min ? value : undefined;
    },
    code,
    expected: `a whole number >= ${min}`,
  };
}

/** `true` or `false`, any case. */
export function bool(code = INVALID_ATTRIBUTE): AttrRule<boolean> {
  return {
    read(raw) {
      const s = raw.trim().toLowerCase();
      return s === 'true' ? true : s === 'false' ? false : undefined;
    },
    code,
    expected: 'true or false',
  };
}

/** One of `values`, compared after `normalize` (default: trimmed, as written). */
export function oneOf<T extends string>(
  values: readonly T[],
  code = INVALID_ATTRIBUTE,
  normalize: (raw: string) => string = (raw) => raw.trim(),
): AttrRule<T> {
  return {
    read(raw) {
      const s = normalize(raw);
      return (values as readonly string[]).includes(s) ? (s as T) : undefined;
    },
    code,
    expected: values.map((v) => `"${v}"`).join(' or '),
  };
}

/** `GET` or `POST`, any case; stored upper case. */
export function method(code = INVALID_ATTRIBUTE): AttrRule<HttpMethod> {
  return oneOf(['GET', 'POST'] as const, code, (raw) => raw.trim().toUpperCase());
}

/** Text matching `pattern`, kept as written. */
export function matching(pattern: RegExp, code: string, expected: string): AttrRule<string> {
  return { read: (raw) => (pattern.test(raw) ? raw : undefined), code, expected };
}

/** `rule`, with `fallback` standing for an invalid value. */
export function orElse<T>(rule: AttrRule<T>, fallback: T): AttrRule<T> {
  return { ...rule, fallback };
}

const EVENTS: readonly CallProgressEvent[] = ['initiated', 'ringing', 'answered', 'completed'];

/** Comma- or space-separated call progress events. */
export function events(code = INVALID_ATTRIBUTE): AttrRule<CallProgressEvent[]> {
  return {
    read(raw) {
      const parts = raw.split(/[\s,]+/).filter((p) => p !== '');
      const lower = parts.map((p) => p.toLowerCase());
      return lower.every((p) => (EVENTS as readonly string[]).includes(p))
        ? (lower as CallProgressEvent[])
        : undefined;
    },
    code,
    expected: `a comma-separated list of ${EVENTS.join(', ')}`,
  };
}
