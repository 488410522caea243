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

/**
 * The variable name a request parameter is stored under. Custom SIP headers arrive as
 * `SipHeader_X-My-Header` or `DialSipHeader_X-My-Header` and become `core_x_my_header`:
 * variable names allow only `[A-Za-z0-9_]`, while SIP header names do not.
 */
export function variableNameOf(param: string): string {
  if (CORE.has(param)) return `core_${param}`;
  const lower = param.toLowerCase();
  for (const prefix of SIP_HEADER_PREFIXES) {
    if (lower.startsWith(prefix)) return `core_${lower.slice(prefix.length).replace(/[^a-z0-9_]/g, '_')}`;
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
  // Every parameter is imported, `target` included (the platform makes it `$target`).
  for (const [name, value] of Object.entries(params)) vars.set(variableNameOf(name), value);
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

/** Drops module-scoped variables: done when rendering moves to another module. */
export function clearModuleVariables(vars: Variables): void {
  for (const name of Array.from(vars.keys())) {
    if (name.startsWith('module_')) vars.delete(name);
  }
}
