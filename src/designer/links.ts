/** Relative controller links carrying `sticky_*` and `module_*` variables. */
import type { Variables } from './variables.js';

const PLAIN = /^[A-Za-z0-9.*_-]*$/;

/** URL-encodes like a Java form encoder (space -> `+`, only `.-*_` left as is). */
export function formEncode(value: string): string {
  if (PLAIN.test(value)) return value;
  return encodeURIComponent(value)
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `controller?target=<target>&sticky_x=..&module_y=..` */
export function controllerLink(target: string, vars: Variables): string {
  let url = `controller?target=${formEncode(target)}`;
  for (const [name, value] of vars) {
    if (name.startsWith('sticky_') || name.startsWith('module_')) {
      url += `&${formEncode(name)}=${formEncode(value)}`;
    }
  }
  return url;
}
