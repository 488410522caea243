/**
 * The flags of `rcml serve` about who the SIP service talks to: the trunk calls to numbers go
 * to (with its digest account), and the sources allowed to send it requests.
 */
import { InvalidArgumentError, type Option } from 'commander';
import { addressList } from '../../engine/fetch/egress.js';
import type { SipServiceOptions } from '../../telephony/sip-service.js';
import { trunkUriProblem } from '../../telephony/sip-trunk.js';
import { envOption } from '../env-option.js';

/** These flags as commander hands them over. */
export interface ServeSipPeerOptions {
  sip?: { host: string; port: number };
  sipTrunk?: string;
  sipTrunkUser?: string;
  sipTrunkPassword?: string;
  sipAllow?: string[];
  sipClientDialOut?: string[];
}

/** `--sip-client-dial-out +1,+44` (or `*`): number prefixes, repeatable. */
function dialOutPrefixes(value: string, previous: string[] = []): string[] {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const bad = entries.find((e) => e !== '*' && !/^\+?[0-9]{1,15}$/.test(e));
  if (bad !== undefined || entries.length === 0) {
    throw new InvalidArgumentError(
      `expected number prefixes such as +1,+44 or * for any${bad === undefined ? '' : ` (not '${bad.slice(0, 20)}')`}`,
    );
  }
  return [...previous, ...entries];
}

/** `--sip-allow 10.0.0.0/8,192.0.2.7`: repeatable, comma-separated addresses or CIDR blocks. */
function allowEntries(value: string, previous: string[] = []): string[] {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  try {
    addressList(entries, 'SIP allow list');
  } catch (err) {
    throw new InvalidArgumentError(err instanceof Error ? err.message : String(err));
  }
  if (entries.length === 0) throw new InvalidArgumentError('SIP allow list: no address or CIDR block');
  return [...previous, ...entries];
}

/** `sip:gateway.example.com:5060[;transport=tcp]`. */
function trunkUri(value: string): string {
  const problem = trunkUriProblem(value.trim());
  if (problem) throw new InvalidArgumentError(`${problem} (expected e.g. sip:gateway.example.com:5060)`);
  return value.trim();
}

/** The flags, each also read from its `RCML_*` variable. */
export function serveSipPeerOptions(): Option[] {
  return [
    envOption(
      '--sip-trunk <uri>',
      'SIP trunk (sip:host:port) that calls to numbers go to, the number as user part (default: numbers stay simulated)',
    ).argParser(trunkUri),
    envOption('--sip-trunk-user <name>', 'digest user name of the trunk account, for its 401/407 challenges'),
    envOption('--sip-trunk-password <password>', 'digest password of the trunk account'),
    envOption(
      '--sip-client-dial-out <prefixes>',
      "numbers a registered client's own calls may dial through --sip-trunk: prefixes such as +1,+44, or * (default: none)",
    ).argParser(dialOutPrefixes),
    envOption(
      '--sip-allow <cidrs>',
      'addresses or CIDR blocks that may send SIP requests; others get no answer (comma-separated, repeatable; default any source)',
    ).argParser(allowEntries),
  ];
}

/** A usage error of these flags taken together, or undefined. */
export function sipPeerOptionsProblem(options: ServeSipPeerOptions): string | undefined {
  if (options.sip === undefined && options.sipTrunk !== undefined) return '--sip-trunk needs --sip';
  if (options.sipTrunk === undefined && (options.sipTrunkUser ?? options.sipTrunkPassword) !== undefined) {
    return '--sip-trunk-user and --sip-trunk-password need --sip-trunk';
  }
  if (options.sip === undefined && options.sipAllow !== undefined) return '--sip-allow needs --sip';
  if (options.sipTrunk === undefined && options.sipClientDialOut !== undefined)
    return '--sip-client-dial-out needs --sip-trunk';
  if (options.sipTrunkPassword !== undefined && options.sipTrunkUser === undefined) {
    return '--sip-trunk-password needs --sip-trunk-user';
  }
  return undefined;
}

/** The `startSipService` options these flags give. */
export function sipPeerServiceOptions(
  options: ServeSipPeerOptions,
): Pick<SipServiceOptions, 'trunk' | 'allowSources' | 'clientDialOut'> {
  return {
    allowSources: options.sipAllow,
    clientDialOut: options.sipClientDialOut,
    trunk:
      options.sipTrunk === undefined
        ? undefined
        : { uri: options.sipTrunk, username: options.sipTrunkUser, password: options.sipTrunkPassword },
  };
}

/** The start-up banner's words on who may send requests, and the trunk (never its password). */
export function sipSourcesNote(options: ServeSipPeerOptions): string {
  const sources = options.sipAllow
    ? `, requests from ${options.sipAllow.join(', ')} only`
    : ', requests from any source';
  const user = options.sipTrunkUser === undefined ? '' : ` as ${options.sipTrunkUser}`;
  const dialOut = options.sipClientDialOut ? `; clients may dial ${options.sipClientDialOut.join(', ')}` : '';
  return `${sources}${options.sipTrunk ? `, numbers to ${options.sipTrunk}${user}${dialOut}` : ''}`;
}
