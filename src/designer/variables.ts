/** Request variables: import from request parameters, `$name` expansion and scoped storage. */

/** Variables of one request, name -> value. Insertion order is the order links carry them. */
export type Variables = Map<string, string>;

/** Request parameters that become `core_<Name>`. */
export const CORE_PARAMETERS = [
  'CallSid',
  'AccountSid',
  'From',
  'To',
  'Body',
  'CallStatus',
  'ApiVersion',
  'Direction',
  'CallerName',
  'CallTimestamp',
  'ForwardedFrom',
  'SmsSid',
  'SmsStatus',
  'InstanceId',
  'ReferTarget',
  'Transferor',
  'Transferee',
] as const;

const CORE = new Set<string>(CORE_PARAMETERS);

/** Prefixes of custom SIP header parameters, matched case-insensitively. */
const SIP_HEADER_PREFIXES = ['sipheader_', 'dialsipheader_'];

/** Bounded memo: parameter names repeat on every request, so each is mapped once. */
const NAME_CACHE_LIMIT = 4096;
const nameCache = new Map<string, string>();

function mapName(param: string): string {
  if (CORE.has(param)) return `core_${param}`;
  const lower = param.toLowerCase();
  for (const prefix of SIP_HEADER_PREFIXES) {
    if (lower.startsWith(prefix)) return `core_${lower.slice(prefix.length).replace(/[^a-z0-9_]/g, '_')}`;
  }
  return param;
}

/**
 * The variable name a request parameter is stored under. Custom SIP headers arrive as
 * `SipHeader_X-My-Header` or `DialSipHeader_X-My-Header` and become `core_x_my_header`:
 * variable names allow only `[A-Za-z0-9_]`, while SIP header names do not.
 */
export function variableNameOf(param: string): string {
  let name = nameCache.get(param);
  if (name === undefined) {
    name = mapName(param);
    if (nameCache.size < NAME_CACHE_LIMIT) nameCache.set(param, name);
  }
  return name;
}

/**
 * Builds the variables of a request: bootstrap values, then request parameters (core names
 * prefixed, `sticky_`/`module_` kept, others plain), then project parameters, which override all.
 */
export function importVariables(
  bootstrap: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
  params: Readonly<Record<string, string>>,
  projectParameters: ReadonlyMap<string, string>,
  target?: string,
): Variables {
  const vars: Variables =
    bootstrap instanceof Map
      ? new Map(bootstrap)
      : new Map(Object.entries(bootstrap as Record<string, string>));
  // Every parameter is imported; the target is one too (the platform makes it `$target`).
  for (const name in params) {
    if (Object.hasOwn(params, name)) vars.set(variableNameOf(name), params[name] as string);
  }
  if (target) vars.set('target', target);
  for (const [name, value] of projectParameters) vars.set(name, value);
  return vars;
}

const VARIABLE = /\$([A-Za-z]+[A-Za-z0-9_]*)/g;

/** Looks `name` up as itself, then `module_name`, then `sticky_name`; missing -> ''. */
export function lookupVariable(vars: Variables, name: string): string {
  return vars.get(name) ?? vars.get(`module_${name}`) ?? vars.get(`sticky_${name}`) ?? '';
}

/**
 * A text split once into literal parts and variable names (each with its scoped names), so
 * expanding it is string concatenation: `[literal, name, module_name, sticky_name, literal, ...]`.
 */
type Template = string[];
const TEMPLATE_CACHE_LIMIT = 4096;
const templates = new Map<string, Template>();

function templateOf(text: string): Template {
  let t = templates.get(text);
  if (t) return t;
  t = [];
  let last = 0;
  for (const m of text.matchAll(VARIABLE)) {
    const name = m[1] as string;
    t.push(text.slice(last, m.index), name, `module_${name}`, `sticky_${name}`);
    last = m.index + m[0].length;
  }
  t.push(text.slice(last));
  if (templates.size < TEMPLATE_CACHE_LIMIT) templates.set(text, t);
  return t;
}

/** Expands every `$name` in `text`. */
export function expand(text: string | undefined, vars: Variables): string {
  if (!text) return '';
  if (!text.includes('$')) return text;
  const t = templateOf(text);
  let out = t[0] as string;
  for (let i = 1; i < t.length; i += 4) {
    out +=
      (vars.get(t[i] as string) ?? vars.get(t[i + 1] as string) ?? vars.get(t[i + 2] as string) ?? '') +
      (t[i + 3] as string);
  }
  return out;
}

/** Names of the variables `text` refers to. */
export function referencedVariables(text: string | undefined): string[] {
  if (!text) return [];
  return Array.from(text.matchAll(VARIABLE), (m) => m[1] as string);
}

/** Drops module-scoped variables: done when rendering moves to another module. */
export function clearModuleVariables(vars: Variables): void {
  for (const name of Array.from(vars.keys())) {
    if (name.startsWith('module_')) vars.delete(name);
  }
}
