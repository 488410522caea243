/**
 * The egress policy of `rcml serve`: which addresses webhook, media and Visual Designer
 * external-service requests may connect to.
 * Private networks are refused by default unless the server listens on a loopback address only.
 */
import { isIP } from 'node:net';
import { InvalidArgumentError, type Option } from 'commander';
import { EgressGuard, type EgressPolicy } from '../../engine/fetch/egress.js';
import { envOption } from '../env-option.js';

export interface EgressOptions {
  host: string;
  denyPrivateNetworks?: boolean;
  egressAllow?: string[];
}

/** `yes|on|true|1` or `no|off|false|0`, for the `[yes|no]` flags. */
export function yesNo(value: string): boolean {
  if (/^(yes|on|true|1)$/i.test(value)) return true;
  if (/^(no|off|false|0)$/i.test(value)) return false;
  throw new InvalidArgumentError('expected yes or no');
}

/** `--egress-allow 10.0.0.0/8,fd00::/8`: repeatable, comma-separated addresses or CIDR blocks. */
function allowEntries(value: string, previous: string[] = []): string[] {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  try {
    new EgressGuard({ denyPrivateNetworks: true, allow: entries });
  } catch (err) {
    throw new InvalidArgumentError(err instanceof Error ? err.message : String(err));
  }
  return [...previous, ...entries];
}

/** The egress options of `rcml serve` (each also read from its RCML_ environment variable). */
export function egressOptions(): Option[] {
  return [
    envOption(
      '--deny-private-networks [yes|no]',
      'refuse webhook, media and external-service requests to loopback, private, link-local and metadata addresses (default: yes unless --host is loopback)',
    ).argParser(yesNo),
    envOption(
      '--egress-allow <cidrs>',
      'addresses or CIDR blocks requests may reach despite --deny-private-networks (comma-separated, repeatable)',
    ).argParser(allowEntries),
  ];
}

/** True for `localhost` and loopback addresses: a server nobody else can reach. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 0) return false;
  return new EgressGuard({ denyPrivateNetworks: true }).refusal(bare) === 'a loopback address';
}

/** The policy the options give, and the start-up line that says it. */
export function egressPolicy(options: EgressOptions): { policy: EgressPolicy; line: string } {
  const explicit = options.denyPrivateNetworks;
  // `--deny-private-networks` alone gives `true`; commander passes it through the parser as such.
  const deny = explicit ?? !isLoopbackHost(options.host);
  const allow = options.egressAllow ?? [];
  const why = explicit === undefined ? (deny ? 'the host is not loopback' : 'loopback host') : 'set';
  const line = deny
    ? `egress: private networks refused (${why})${allow.length ? `, allowed: ${allow.join(', ')}` : ''}`
    : `egress: any address (${why}; --deny-private-networks to refuse private networks)`;
  return { policy: { denyPrivateNetworks: deny, allow }, line };
}
