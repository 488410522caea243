/**
 * How deep a parsed JSON value nests, found without recursion: a project is cloned and walked
 * recursively after loading, so one nested deeper than the stack would throw (a `RangeError`)
 * where a clear problem with its path belongs.
 */

/** Deepest nesting of objects and arrays a project may have (real projects use about ten). */
export const MAX_PROJECT_DEPTH = 64;

/** The path of the first value nested deeper than `max` levels, or undefined when none is. */
export function tooDeepAt(
  value: unknown,
  max: number = MAX_PROJECT_DEPTH,
): Array<string | number> | undefined {
  const stack: Array<{ value: unknown; depth: number; path: Array<string | number> }> = [
    { value, depth: 0, path: [] },
  ];
  while (stack.length > 0) {
    const item = stack.pop() as (typeof stack)[number];
    if (typeof item.value !== 'object' || item.value === null) continue;
    const depth = item.depth + 1;
    if (depth > max) return item.path;
    const entries: Array<[string | number, unknown]> = Array.isArray(item.value)
      ? item.value.map((v, i) => [i, v])
      : Object.entries(item.value);
    for (const [key, child] of entries) stack.push({ value: child, depth, path: [...item.path, key] });
  }
  return undefined;
}
