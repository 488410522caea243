/**
 * Parameters on the wire. The API names its parameters in PascalCase (`StatusCallbackEvent`);
 * the client takes them in camelCase (`statusCallbackEvent`), the first letter lowered, and
 * sends each value as text, a list as the field repeated (as the API reads lists).
 */

/**
 * A value as the client takes it for a parameter the API types as text: `'true'`/`'false'` also
 * as booleans, `'0'`/`'1'` also as numbers, free text also as a number (`Timeout`, `PageSize`);
 * other literal values (statuses, modes) as they are.
 */
export type Loose<V> = V extends 'true'
  ? V | true
  : V extends 'false'
    ? V | false
    : V extends `${infer N extends number}`
      ? V | N
      : string extends V
        ? V | number
        : V;

/** A parameter object of the API with its names' first letter lowered and its values {@link Loose}. */
export type CamelCased<T> = { [K in keyof T as K extends string ? Uncapitalize<K> : never]: Loose<T[K]> };

/** A value the client can put on the wire. */
export type WireValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** The API's name of a camelCase parameter. */
export const wireName = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

function text(name: string, value: string | number | boolean): string {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new TypeError(`${name}: expected a finite number, got ${value}`);
  }
  return String(value);
}

/**
 * Name-value pairs of camelCase parameters under their API names; `undefined` and `null` are
 * left out, a list gives one pair per element, in order.
 */
export function wirePairs(params: object | undefined): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(params ?? {}) as Array<[string, WireValue]>) {
    if (value === undefined || value === null) continue;
    const wire = wireName(name);
    if (Array.isArray(value)) for (const v of value) pairs.push([wire, text(name, v)]);
    else pairs.push([wire, text(name, value as string | number | boolean)]);
  }
  return pairs;
}

/** A form-encoded body (`application/x-www-form-urlencoded`) of name-value pairs. */
export const formBody = (pairs: Array<[string, string]>) => new URLSearchParams(pairs);
