import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/api/ops/log.js';

const LOG = join(import.meta.dirname, '../../../src/api/ops/log.ts');

describe('the log on standard error', () => {
  it('is written asynchronously', () => {
    const log = createLogger({ format: 'json', level: 'silent' });
    const stream = (log as unknown as Record<symbol, { sync?: boolean }>)[pino.symbols.streamSym];
    expect(stream.sync).toBe(false);
  });

  it('keeps every line of a process that exits at once', () => {
    // 2,000 lines and process.exit right after: the lines still buffered are written on exit.
    const script = `
      const { createLogger } = await import(${JSON.stringify(LOG)});
      const log = createLogger({ format: 'json' });
      for (let i = 0; i < 2000; i++) log.info({ i, callSid: 'CA' + i }, 'call ended');
      process.exit(0);
    `;
    const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(out.status).toBe(0);
    const lines = out.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { i: number; msg: string });
    expect(lines.map((l) => l.i)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
    expect(lines[0]?.msg).toBe('call ended');
  });
});
