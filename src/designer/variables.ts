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

/** Parameters the controller itself reads; never imported as variables. */
const CONTROL_PARAMETERS = new Set(['target']);

const SIP_HEADER_PREFIX = 'SipHeader_';

/**
 * The variable name a request parameter is stored under. Custom SIP headers arrive as
 * `SipHeader_X-My-Header` and become `core_x_my_header`: variable names are case-sensitive and
 * allow only `[A-Za-z0-9_]`, while SIP header names are neither.
 */
export function variableNameOf(param: string): string {
  if (CORE.has(param)) return `core_${param}`;
  if (param.startsWith(SIP_HEADER_PREFIX)) {
    return `core_${param
      .slice(SIP_HEADER_PREFIX.length)
      .toLowerCase()
      .replace(/[^a-z0-9_]/g, '_')}`;
  }
  return param;
}

/**
 * Builds the variables of a request: bootstrap values, then request parameters (core names
 * prefixed, `sticky_`/`module_` kept, others plain), then project parameters, which override all.
 */
export function importVariables(
  bootstrap: Readonly<Record<string, string>>,
  params: Readonly<Record<string, string>>,
  projectParameters: ReadonlyMap<string, string>,
): Variables {
  const vars: Variables = new Map(Object.entries(bootstrap));
  for (const [name, value] of Object.entries(params)) {
    if (CONTROL_PARAMETERS.has(name)) continue;
    vars.set(variableNameOf(name), value);
  }
  for (const [name, value] of projectParameters) vars.set(name, value);
  return vars;
}

const VARIABLE = /\$([A-Za-z]+[A-Za-z0-9_]*)/g;

/** Looks `name` up as itself, then `module_name`, then `sticky_name`; missing -> ''. */
export function lookupVariable(vars: Variables, name: string): string {
  return vars.get(name) ?? vars.get(`module_${name}`) ?? vars.get(`sticky_${name}`) ?? '';
}

/** Expands every `$name` in `text`. */
export function expand(text: string | undefined, vars: Variables): string {
  if (!text) return '';
  if (!text.includes('$')) return text;
  return text.replace(VARIABLE, (_, name: string) => lookupVariable(vars, name));
}

/** Names of the variables `text` refers to. */
export function referencedVariables(text: string | undefined): string[] {
  if (!text) return [];
  return Array.from(text.matchAll(VARIABLE), (m) => m[1] as string);
}

/** Stores a value in a scope: module -> `module_X`, application -> `sticky_X`, plus a plain copy. */
export function storeVariable(
  vars: Variables,
  name: string,
  value: string,
  scope: 'module' | 'application',
): void {
  vars.set(scope === 'application' ? `sticky_${name}` : `module_${name}`, value);
  vars.set(name, value);
}

/** Drops module-scoped variables: done when rendering moves to another module. */
export function clearModuleVariables(vars: Variables): void {
  for (const name of Array.from(vars.keys())) {
    if (name.startsWith('module_')) vars.delete(name);
  }
}
