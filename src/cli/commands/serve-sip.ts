import net from 'node:net';
import { InvalidArgumentError, type Option } from 'commander';
import { type ClientDirectory, openClientDirectory } from '../../store/client-directory.js';
import type { Store } from '../../store/ports.js';
import { envOption } from '../env-option.js';
import { type ServeSipPeerOptions, serveSipPeerOptions } from './serve-sip-peers.js';

/** The SIP flags of `rcml serve`, as commander hands them over. */
export interface ServeSipOptions extends ServeSipPeerOptions {
  sip?: { host: string; port: number };
  rtpPorts: { min: number; max: number };
  sipPublicAddress?: string;
  rtpTimeout: number;
  rtpHoldTimeout: number;
}

/** Seconds of an RTP timeout: 0 (never) to a day. */
function timeoutSeconds(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 86_400) {
    throw new InvalidArgumentError('expected whole seconds from 0 (never) to 86400');
  }
  return n;
}

/** `127.0.0.1:5060`, `[::1]:5060`, `0.0.0.0:5060`, or a bare port (on 127.0.0.1). */
export function sipAddress(value: string): { host: string; port: number } {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([0-9.]+|localhost)):(\d+)$/.exec(value) ?? /^()()(\d+)$/.exec(value);
  const host = m ? m[1] || m[2] || '127.0.0.1' : '';
  const port = m ? Number(m[3]) : Number.NaN;
  if (!m || port > 65535 || (host !== 'localhost' && !net.isIP(host))) {
    throw new InvalidArgumentError('expected <ip>:<port> (e.g. 127.0.0.1:5060, [::1]:5060) or a port');
  }
  return { host: host === 'localhost' ? '127.0.0.1' : host, port };
}

/** `20000-29999`: at least two even ports, within 1024-65535. */
export function rtpPorts(value: string): { min: number; max: number } {
  const m = /^(\d+)-(\d+)$/.exec(value);
  const min = m ? Number(m[1]) : Number.NaN;
  const max = m ? Number(m[2]) : Number.NaN;
  if (!m || min < 1024 || max > 65535 || max - min < 2) {
    throw new InvalidArgumentError('expected <min>-<max> within 1024-65535, e.g. 20000-29999');
  }
  return { min, max };
}

function publicAddress(value: string): string {
  if (!net.isIP(value) && !/^[a-zA-Z0-9.-]+$/.test(value)) {
    throw new InvalidArgumentError('expected an IP address or host name');
  }
  return value;
}

/** The SIP flags, each also read from its `RCML_*` variable. */
export function serveSipOptions(): Option[] {
  return [
    envOption(
      '--sip <address>',
      'answer real calls over SIP (UDP and TCP) at <ip>:<port> (needs --clock real; a bare port binds 127.0.0.1)',
    ).argParser(sipAddress),
    envOption('--rtp-ports <min-max>', 'UDP ports of call audio (RTP)')
      .argParser(rtpPorts)
      .default({ min: 20000, max: 29999 }, '20000-29999'),
    envOption(
      '--rtp-timeout <seconds>',
      'end a call (BYE) whose far end sends no RTP for this long while it should be sending (0: never)',
    )
      .argParser(timeoutSeconds)
      .default(60),
    envOption(
      '--rtp-hold-timeout <seconds>',
      'the same while the far end holds the call (sendonly/inactive, sending nothing; 0: never)',
    )
      .argParser(timeoutSeconds)
      .default(3600),
    envOption(
      '--sip-public-address <address>',
      'address written in SIP Contact/Via and SDP (default the --sip address)',
    ).argParser(publicAddress),
    ...serveSipPeerOptions(),
  ];
}

/**
 * The clients softphones register and place calls as (`startSipService({ clients })`): the
 * store's active clients of active accounts with their voice URLs (an application's, on
 * `baseUrl`, before a `VoiceUrl`), reloaded after every write through the API and every 5 s
 * (other nodes' writes).
 */
export function sipClientDirectory(
  store: Store,
  log: { warn(detail: object, message: string): void },
  baseUrl: () => string | undefined,
): Promise<ClientDirectory> {
  return openClientDirectory(store.clients, {
    accounts: store.accounts,
    applicationUrl: (accountSid, sid) => applicationUrl(store, baseUrl(), accountSid, sid),
    onError: (err) =>
      log.warn({ err }, 'reloading the SIP clients failed; the last ones loaded stay in force'),
  });
}

/**
 * Where an account's application serves its RCML: its controller's path on this server's base
 * URL; undefined when the account has no such application or the server no base URL yet.
 */
export async function applicationUrl(
  store: Store,
  baseUrl: string | undefined,
  accountSid: string,
  sid: string,
): Promise<string | undefined> {
  if (baseUrl === undefined) return undefined;
  const application = await store.applications.get(accountSid, sid);
  return application ? new URL(application.rcmlUrl, baseUrl).href : undefined;
}
