/**
 * A spoofed flood from the node's own subnet (RFC 1918 addresses nobody answers ARP for): the
 * system holds the answers to them for seconds, which once stopped every UDP answer for minutes
 * after. In a network namespace the test makes (root only; skipped otherwise with one line).
 */
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSipEndpoint, type SipEndpoint } from '../../../src/telephony/sip/endpoint.js';

const NS = `rcmlt${process.pid}`;
const HOST = '10.79.0.1';
const PEER = '10.79.0.2';
const SCRIPT = fileURLToPath(new URL('../../support/spoof-flood.py', import.meta.url));

/** Makes the namespace and its veth to this one; false when this machine cannot. */
function makeNamespace(): boolean {
  try {
    if (process.getuid?.() !== 0) return false;
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'ignore' });
    ip('netns', 'add', NS);
    ip('link', 'add', `${NS}a`, 'type', 'veth', 'peer', 'name', `${NS}b`);
    ip('link', 'set', `${NS}b`, 'netns', NS);
    ip('addr', 'add', `${HOST}/24`, 'dev', `${NS}a`);
    ip('link', 'set', `${NS}a`, 'up');
    ip('-n', NS, 'addr', 'add', `${PEER}/24`, 'dev', `${NS}b`);
    ip('-n', NS, 'link', 'set', `${NS}b`, 'up');
    ip('-n', NS, 'link', 'set', 'lo', 'up');
    return true;
  } catch {
    removeNamespace();
    return false;
  }
}

function removeNamespace(): void {
  for (const args of [
    ['link', 'del', `${NS}a`],
    ['netns', 'del', NS],
  ]) {
    try {
      execFileSync('ip', args, { stdio: 'ignore' });
    } catch {
      // Not made, or gone with the other.
    }
  }
}

const ready = makeNamespace();
if (!ready) console.log('spoofed-flood test: skipped, network namespaces need root, ip and python3');

describe.skipIf(!ready)('a spoofed SIP flood from the node’s own subnet', () => {
  let endpoint: SipEndpoint;

  beforeAll(async () => {
    endpoint = await openSipEndpoint({
      host: HOST,
      port: 0,
      onInvite: () => {},
      limits: { exemptLoopback: false },
    });
  });

  afterAll(async () => {
    await endpoint?.close();
    removeNamespace();
  });

  it('leaves answers to a real client going again within seconds of its end', async () => {
    const child = spawn('ip', [
      'netns',
      'exec',
      NS,
      'python3',
      SCRIPT,
      HOST,
      String(endpoint.port),
      '10.79.0.',
      '2',
      '3000',
      PEER,
    ]);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    await new Promise((resolve) => child.on('exit', resolve));
    const result = JSON.parse(out) as { sent: number; firstAnswerAfter: number | null };
    expect(result.sent).toBeGreaterThan(1000);
    expect(result.firstAnswerAfter).not.toBeNull();
    expect(result.firstAnswerAfter as number).toBeLessThan(6);
  }, 30_000);
});
