import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  sipPeerOptionsProblem,
  sipPeerServiceOptions,
  sipSourcesNote,
} from '../../src/cli/commands/serve-sip-peers.js';
import { createProgram } from '../../src/cli/program.js';

/** The usage error `rcml serve <args>` stops with (before it starts anything). */
async function usageError(args: string[]): Promise<string> {
  const program = createProgram();
  for (const command of [program, ...program.commands]) {
    command.configureOutput({ writeErr: () => {}, writeOut: () => {}, outputError: () => {} });
  }
  const err = await program.parseAsync(['serve', ...args], { from: 'user' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(CommanderError);
  return (err as CommanderError).message;
}

describe('rcml serve SIP trunk options', () => {
  it('refuses a trunk URI that is not sip:host[:port], naming the option and the value', async () => {
    for (const bad of [
      'gateway:5060',
      'sip:+1555@gw:5060',
      'sips:gw:5061',
      'sip:gw:5060;transport=tls',
      'sip:gw:99999',
    ]) {
      const message = await usageError(['--sip-trunk', bad]);
      expect(message).toContain('--sip-trunk');
    }
    expect(await usageError(['--sip-trunk', 'sip:+1555@gw'])).toContain('user part');
  });

  it('refuses a bad --sip-allow entry, naming it', async () => {
    expect(await usageError(['--sip-allow', '10.0.0.0/8,10.0.0.300'])).toContain(
      "SIP allow list: '10.0.0.300' is not an IP address or CIDR block",
    );
    expect(await usageError(['--sip-allow', ','])).toContain('--sip-allow');
  });

  it('takes --sip-client-dial-out prefixes, refuses anything else, and wants a trunk for them', async () => {
    expect(await usageError(['--sip-client-dial-out', '+1,44x'])).toContain("not '44x'");
    expect(await usageError(['--sip-client-dial-out', ','])).toContain('--sip-client-dial-out');
    const sip = { host: '127.0.0.1', port: 5060 };
    expect(sipPeerOptionsProblem({ sip, sipClientDialOut: ['+1'] })).toBe(
      '--sip-client-dial-out needs --sip-trunk',
    );
    expect(
      sipPeerServiceOptions({ sip, sipTrunk: 'sip:gw', sipClientDialOut: ['+1', '*'] }).clientDialOut,
    ).toEqual(['+1', '*']);
  });

  it('wants --sip for a trunk, a trunk for its user, a user for its password', () => {
    const sip = { host: '127.0.0.1', port: 5060 };
    expect(sipPeerOptionsProblem({ sipTrunk: 'sip:gw' })).toBe('--sip-trunk needs --sip');
    expect(sipPeerOptionsProblem({ sip, sipTrunkUser: 'u' })).toContain('need --sip-trunk');
    expect(sipPeerOptionsProblem({ sip, sipTrunk: 'sip:gw', sipTrunkPassword: 'p' })).toContain(
      'needs --sip-trunk-user',
    );
    expect(sipPeerOptionsProblem({ sip, sipTrunk: 'sip:gw', sipTrunkUser: 'u', sipTrunkPassword: 'p' })).toBe(
      undefined,
    );
    expect(
      sipPeerServiceOptions({ sip, sipTrunk: 'sip:gw:5070', sipTrunkUser: 'u', sipTrunkPassword: 'p' }),
    ).toEqual({
      trunk: { uri: 'sip:gw:5070', username: 'u', password: 'p' },
    });
  });

  it('says in the start-up line who may send requests and where numbers go, never the password', () => {
    expect(sipSourcesNote({})).toBe(', requests from any source');
    expect(
      sipSourcesNote({
        sipAllow: ['10.0.0.0/8'],
        sipTrunk: 'sip:gw',
        sipTrunkUser: 'u',
        sipTrunkPassword: 'secret',
      }),
    ).toBe(', requests from 10.0.0.0/8 only, numbers to sip:gw as u');
  });
});
