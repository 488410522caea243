/**
 * `npm run bench -- sip-security`: what the SIP guards buy, each beside the same attack on a
 * server without them (the floor), in one run and on loopback:
 * - digest guesses evaluated per second per login, 8 sources guessing one login for 10 minutes
 *   (on a virtual clock) at 100 guesses/s each;
 * - the memory an OPTIONS flood (300/s of 54 KB for 5 s) leaves behind;
 * - calls a legitimate caller gets answered while another source floods INVITEs it never ACKs,
 *   on a node taking at most 20 calls at once.
 */
import dgram from 'node:dgram';
import { authorizationFor } from '../src/telephony/sip/digest.js';
import { openSipEndpoint } from '../src/telephony/sip/endpoint.js';
import { headerOf, type SipRequest } from '../src/telephony/sip/message.js';
import { Registrar } from '../src/telephony/sip/registrar.js';
import type { UasInvite } from '../src/telephony/sip/uas-invite.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function register(login: string, authorization?: string): SipRequest {
  return {
    kind: 'request',
    method: 'REGISTER',
    uri: 'sip:127.0.0.1',
    headers: [
      ['via', 'SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bKg'],
      ['from', `<sip:${login}@127.0.0.1>;tag=g`],
      ['to', `<sip:${login}@127.0.0.1>`],
      ['call-id', 'guess@bench'],
      ['cseq', '1 REGISTER'],
      ['contact', `<sip:${login}@10.0.0.1>`],
      ...(authorization ? [['authorization', authorization] as [string, string]] : []),
    ],
    body: '',
  };
}

/** Wrong digest answers for alice whose password was checked, per second of the attack. */
function guessing(guarded: boolean): number {
  let now = 0;
  let evaluated = 0;
  const registrar = new Registrar(
    {
      clientsOf: (login) => {
        if (login === 'alice') evaluated++;
        return login === 'alice' ? [{ accountSid: 'AC1', password: 'right' }] : [];
      },
    },
    '127.0.0.1',
    guarded
      ? { now: () => now }
      : { now: () => now, failureLimits: { perLoginAndSource: 1e9, perSource: 1e9, perLogin: 1e9 } },
  );
  const seconds = 600;
  for (let tick = 0; tick < seconds * 100; tick++) {
    now = tick * 10;
    const peer = { transport: 'udp' as const, address: `198.51.100.${tick % 8}`, port: 5060 };
    const challenge = registrar.register(register('alice'), peer);
    const header = headerOf(challenge.headers, 'www-authenticate') as string;
    const guess = authorizationFor(
      header,
      { username: 'alice', password: `guess${tick}` },
      'REGISTER',
      'sip:127.0.0.1',
    );
    registrar.register(register('alice', guess), peer);
  }
  return evaluated / seconds;
}

function options(branch: string, port: number, vias: string[]): string {
  return [
    'OPTIONS sip:15550100@127.0.0.1 SIP/2.0',
    `Via: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bK${branch}`,
    ...vias,
    'From: <sip:scan@127.0.0.1>;tag=s',
    'To: <sip:15550100@127.0.0.1>',
    `Call-ID: ${branch}@bench`,
    'CSeq: 1 OPTIONS',
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');
}

/** RSS growth (MB) after an OPTIONS flood, and the answers kept (KB). */
async function optionsFlood(guarded: boolean): Promise<{ rssMb: number; keptKb: number }> {
  const endpoint = await openSipEndpoint({
    port: 0,
    onInvite: () => {},
    limits: guarded ? { exemptLoopback: false } : { exemptLoopback: false, invitesPerSecond: 1e9 },
    replayCacheBytes: guarded ? undefined : Number.POSITIVE_INFINITY,
  });
  const socket = dgram.createSocket('udp4');
  socket.on('message', () => {});
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  // 90 Vias of 590 bytes: 54 KB, each copied into the answer.
  const vias = Array.from(
    { length: 90 },
    (_, i) => `Via: SIP/2.0/UDP 10.1.${i}.1:5060;branch=z9hG4bK${'x'.repeat(560)}${i}`,
  );
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().rss;
  // 300/s in slices of 3 every 10 ms (a socket's buffer holds only a few of them at once).
  for (let slice = 0; slice < 500; slice++) {
    for (let i = 0; i < 3; i++)
      socket.send(
        options(`f${guarded}${slice}x${i}`, socket.address().port, vias),
        endpoint.port,
        '127.0.0.1',
      );
    await wait(10);
  }
  gc?.();
  const rssMb = (process.memoryUsage().rss - before) / 1e6;
  const keptKb = endpoint.stats().keptBytes / 1000;
  socket.close();
  await endpoint.close();
  return { rssMb, keptKb };
}

function invite(branch: string, port: number): string {
  const sdp =
    'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 9 RTP/AVP 0\r\n';
  return [
    'INVITE sip:15550100@127.0.0.1 SIP/2.0',
    `Via: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bK${branch}`,
    'From: <sip:c@127.0.0.1>;tag=c',
    'To: <sip:15550100@127.0.0.1>',
    `Call-ID: ${branch}@bench`,
    'CSeq: 1 INVITE',
    `Contact: <sip:c@127.0.0.1:${port}>`,
    'Content-Type: application/sdp',
    `Content-Length: ${sdp.length}`,
    '',
    sdp,
  ].join('\r\n');
}

/** Calls of a legitimate caller answered (of 30) while another source floods INVITEs it never ACKs. */
async function unackedFlood(guarded: boolean): Promise<number> {
  const live = new Set<UasInvite>();
  const endpoint = await openSipEndpoint({
    port: 0,
    limits: { exemptLoopback: false, invitesPerSecond: 1000, setupsPerSource: guarded ? 10 : 1e9 },
    onInvite: (call) => {
      // The node's live-call cap: 20.
      for (const c of live) if (c.over) live.delete(c);
      if (live.size >= 20) return call.reject(503);
      live.add(call);
      call.answer('v=0\r\n');
    },
  });
  const flooder = dgram.createSocket('udp4');
  const caller = dgram.createSocket('udp4');
  let answered = 0;
  flooder.on('message', () => {});
  caller.on('message', (m) => {
    const text = m.toString('latin1');
    if (!text.startsWith('SIP/2.0 200') || !/^CSeq: 1 INVITE/m.test(text)) return;
    answered++;
    const branch = /branch=z9hG4bK(\w+)/.exec(text)?.[1];
    const tag = /^To: .*;tag=(\w+)/m.exec(text)?.[1];
    const ack = invite(`${branch}ack`, caller.address().port)
      .split('\r\n\r\n')[0]
      .replace('INVITE sip', 'ACK sip')
      .replace('CSeq: 1 INVITE', 'CSeq: 1 ACK')
      .replace(`Call-ID: ${branch}ack@bench`, `Call-ID: ${branch}@bench`)
      .replace('To: <sip:15550100@127.0.0.1>', `To: <sip:15550100@127.0.0.1>;tag=${tag}`)
      .replace(/Content-Length: \d+/, 'Content-Length: 0');
    caller.send(`${ack}\r\n\r\n`, endpoint.port, '127.0.0.1');
    // A short call: hung up at once, its slot free again.
    const bye = ack
      .replace('ACK sip', 'BYE sip')
      .replace('CSeq: 1 ACK', 'CSeq: 2 BYE')
      .replace(`branch=z9hG4bK${branch}ack`, `branch=z9hG4bK${branch}bye`);
    caller.send(`${bye}\r\n\r\n`, endpoint.port, '127.0.0.1');
  });
  await new Promise<void>((resolve) => flooder.bind(0, '127.0.0.2', () => resolve()));
  await new Promise<void>((resolve) => caller.bind(0, '127.0.0.1', () => resolve()));
  for (let i = 0; i < 60; i++) {
    flooder.send(invite(`flood${guarded}${i}`, flooder.address().port), endpoint.port, '127.0.0.1');
    if (i % 2 === 0)
      caller.send(invite(`call${guarded}${i}`, caller.address().port), endpoint.port, '127.0.0.1');
    await wait(50);
  }
  await wait(500);
  flooder.close();
  caller.close();
  await endpoint.close();
  return answered;
}

export async function run(): Promise<void> {
  const guessed = guessing(true);
  const unguarded = guessing(false);
  console.log(
    `digest guesses evaluated per login: ${guessed.toFixed(3)}/s with lockouts, ${unguarded.toFixed(0)}/s without (8 sources sharing 100 guesses/s for 10 min, virtual clock); ratio ${(guessed / unguarded).toFixed(5)}`,
  );
  // A first flood warms the process up (its code, its buffers); the two measured ones follow.
  await optionsFlood(true);
  const flood = await optionsFlood(true);
  const open = await optionsFlood(false);
  console.log(
    `OPTIONS flood (300/s of 54 KB for 5 s): RSS ${flood.rssMb >= 0 ? '+' : ''}${flood.rssMb.toFixed(1)} MB, answers kept ${flood.keptKb.toFixed(0)} KB; without rate or cache bound: RSS +${open.rssMb.toFixed(1)} MB, kept ${open.keptKb.toFixed(0)} KB`,
  );
  const withLimit = await unackedFlood(true);
  const withoutLimit = await unackedFlood(false);
  console.log(
    `calls of another source answered during an un-ACKed INVITE flood (20/s, cap 20 live): ${withLimit}/30 with the per-source set-up limit, ${withoutLimit}/30 without`,
  );
}
