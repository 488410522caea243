import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import { exitOf, startServeProcess } from '../support/serve-process.js';
import { missingTools, runSipp } from '../support/sip-tools.js';
import * as C from '../support/sipp-callee.js';
import * as S from '../support/sipp-scenarios.js';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

describe('rcml serve --sip', () => {
  it('refuses bad SIP options as usage errors, and --sip on the virtual clock', async () => {
    for (const [args, option] of [
      [['--sip', 'nowhere'], '--sip'],
      [['--sip', '127.0.0.1:99999'], '--sip'],
      [['--rtp-ports', '20000'], '--rtp-ports'],
      [['--rtp-ports', '80-90'], '--rtp-ports'],
    ] as const) {
      const program = createProgram();
      for (const command of [program, ...program.commands]) {
        command.configureOutput({ writeErr: () => {}, writeOut: () => {}, outputError: () => {} });
      }
      const err = await program.parseAsync(['serve', ...args], { from: 'user' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CommanderError);
      expect((err as CommanderError).message).toContain(option);
    }
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', MAIN, 'serve', '--sip', '127.0.0.1:0', '--clock', 'virtual'],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--sip answers real calls in real time: it needs --clock real');
  });

  const skip = missingTools('sipp', 'espeak-ng', 'sox');

  it.skipIf(skip)(
    'answers a SIPp call to a --number, which the REST API then lists, and calls a sip: To of POST Calls over SIP',
    async () => {
      const docs: Server = createServer((_req, res) => {
        res.setHeader('content-type', 'application/xml');
        res.end('<Response><Say>Hi</Say><Hangup/></Response>');
      });
      await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise((resolve) => docs.close(resolve)));
      const data = mkdtempSync(join(tmpdir(), 'rcml-serve-sip-'));
      cleanups.push(() => rmSync(data, { recursive: true, force: true }));
      const address = docs.address();
      const docsPort = typeof address === 'object' && address ? address.port : 0;
      const serve = await startServeProcess([
        '--data',
        data,
        '--sip',
        '127.0.0.1:0',
        '--rtp-ports',
        '37000-37999',
        '--number',
        `+15550100=http://127.0.0.1:${docsPort}/voice`,
      ]);
      cleanups.push(async () => {
        serve.child.kill('SIGTERM');
        await exitOf(serve.child);
      });
      const sipPort = /sip: listening on udp\+tcp 127\.0\.0\.1:(\d+)/.exec(serve.out())?.[1];
      expect(sipPort).toBeDefined();
      const run = runSipp(S.scenario('serve', `${S.answered()}${S.answerBye}`), `127.0.0.1:${sipPort}`, {
        service: '15550100',
        keys: { sinkport: 9, caller: '15557777' },
      });
      const result = await run.done;
      expect(result.code, result.messages.slice(-2000)).toBe(0);
      const sid = /account sid: (AC[0-9a-f]{32})/.exec(serve.out())?.[1] as string;
      const token = /auth token: ([0-9a-f]{32})/.exec(serve.out())?.[1] as string;
      const res = await fetch(`${serve.url}/platform/2012-04-24/Accounts/${sid}/Calls.json`, {
        headers: { Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}` },
      });
      const body = (await res.json()) as { calls: Array<Record<string, unknown>> };
      expect(body.calls).toMatchObject([
        { from: '15557777', to: '+15550100', direction: 'inbound', status: 'completed' },
      ]);
      // POST Calls with a sip: To sends an INVITE (X- headers of the URI on it); 486 is busy.
      const calleePort = 33000 + Math.floor(Math.random() * 1000) * 2;
      const busy = runSipp(S.scenario('busy', C.refusing('486 Busy Here')), '127.0.0.1', {
        port: calleePort,
      });
      const auth = { Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}` };
      const created = await fetch(`${serve.url}/platform/2012-04-24/Accounts/${sid}/Calls.json`, {
        method: 'POST',
        headers: auth,
        body: new URLSearchParams({
          From: '+15551111',
          To: `sip:bob@127.0.0.1:${calleePort}?X-Order=7`,
          Url: `http://127.0.0.1:${docsPort}/voice`,
        }),
      });
      expect(created.status).toBe(200);
      const callSid = ((await created.json()) as { sid: string }).sid;
      const refused = await busy.done;
      expect(refused.code, refused.messages.slice(-2000)).toBe(0);
      expect(refused.messages).toMatch(/^INVITE sip:bob@127\.0\.0\.1:\d+ SIP\/2\.0/m);
      expect(refused.messages).toContain('X-Order: 7');
      // The engine writes the status just after it acknowledged the 486.
      let status = '';
      for (let i = 0; i < 50 && status !== 'busy'; i++) {
        const res2 = await fetch(`${serve.url}/platform/2012-04-24/Accounts/${sid}/Calls/${callSid}.json`, {
          headers: auth,
        });
        status = ((await res2.json()) as { status: string }).status;
      }
      expect(status).toBe('busy');
    },
  );
});
