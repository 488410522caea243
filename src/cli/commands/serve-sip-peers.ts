/**
 * The flags of `rcml serve` about who the SIP service talks to: the trunk calls to numbers go
 * to (with its digest account).
 */
import { InvalidArgumentError, type Option } from 'commander';
import type { SipServiceOptions } from '../../telephony/sip-service.js';
import { trunkUriProblem } from '../../telephony/sip-trunk.js';
import { envOption } from '../env-option.js';

/** These flags as commander hands them over. */
export interface ServeSipPeerOptions {
  sip?: { host: string; port: number };
  sipTrunk?: string;
  sipTrunkUser?: string;
  sipTrunkPassword?: string;
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
  ];
}

/** A usage error of these flags taken together, or undefined. */
export function sipPeerOptionsProblem(options: ServeSipPeerOptions): string | undefined {
  if (options.sip === undefined && options.sipTrunk !== undefined) return '--sip-trunk needs --sip';
  if (options.sipTrunk === undefined && (options.sipTrunkUser ?? options.sipTrunkPassword) !== undefined) {
    return '--sip-trunk-user and --sip-trunk-password need --sip-trunk';
  }
  if (options.sipTrunkPassword !== undefined && options.sipTrunkUser === undefined) {
    return '--sip-trunk-password needs --sip-trunk-user';
  }
  return undefined;
}

/** The `startSipService` options these flags give. */
export function sipPeerServiceOptions(options: ServeSipPeerOptions): Pick<SipServiceOptions, 'trunk'> {
  return {
    trunk:
      options.sipTrunk === undefined
        ? undefined
        : { uri: options.sipTrunk, username: options.sipTrunkUser, password: options.sipTrunkPassword },
  };
}
