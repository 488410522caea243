import { describe, expect, it } from 'vitest';
import { signingKeysOf } from '../../src/api/signing-keys.js';

describe('signing keys for webhooks', () => {
  it('reads the key each time, and uses the last one read while the store cannot answer', async () => {
    let key = 'k1';
    let down = false;
    const keys = signingKeysOf({
      get: async (sid) => {
        if (down) throw new Error('connection refused');
        return { sid, signingKey: key } as never;
      },
    });
    expect(await keys('AC1')).toBe('k1');
    key = 'k2';
    expect(await keys('AC1')).toBe('k2');
    down = true;
    expect(await keys('AC1')).toBe('k2');
  });

  it('uses the last key when a read takes longer than its timeout', async () => {
    let hang = false;
    const keys = signingKeysOf(
      {
        get: (sid) =>
          hang ? new Promise(() => undefined) : Promise.resolve({ sid, signingKey: 'k' } as never),
      },
      { timeoutMs: 20 },
    );
    expect(await keys('AC1')).toBe('k');
    hang = true;
    expect(await keys('AC1')).toBe('k');
  });

  it('waits for the store with backoff when no key is known yet, then fails with its error', async () => {
    let reads = 0;
    const keys = signingKeysOf(
      {
        get: async (sid) => {
          reads++;
          if (reads < 3) throw new Error('connection refused');
          return { sid, signingKey: 'late' } as never;
        },
      },
      { waitMs: 5000 },
    );
    expect(await keys('AC1')).toBe('late');
    expect(reads).toBe(3);
    const never = signingKeysOf(
      {
        get: async () => {
          throw new Error('connection refused');
        },
      },
      { waitMs: 150 },
    );
    await expect(never('AC2')).rejects.toThrow('connection refused');
  });
});
