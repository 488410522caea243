import { describe, expect, it } from 'vitest';
import { attachment } from '../../../src/api/http/attachment.js';
import { ROOT_A, setup } from '../harness.js';

describe('headers of every answer', () => {
  it('X-Content-Type-Options: nosniff on records, lists, errors, 401s and operating routes', async () => {
    const { request } = await setup();
    for (const [path, auth] of [
      [`${ROOT_A}/Calls.json`, undefined],
      [`${ROOT_A}/Calls/CA0.json`, undefined],
      [`${ROOT_A}/Calls.json`, null],
      ['/nowhere', undefined],
      ['/health', null],
      ['/visual-designer/services/projects', undefined],
      ['/callqueue/numbers', undefined],
    ] as const) {
      const res = await request(path, { auth });
      expect(res.headers.get('X-Content-Type-Options'), `${path} (${res.status})`).toBe('nosniff');
    }
  });

  it('downloads are attachments with a safe plain file name and the name as given', () => {
    expect(attachment('greeting.wav')).toBe(
      `attachment; filename="greeting.wav"; filename*=UTF-8''greeting.wav`,
    );
    expect(attachment('"><script>.wav')).toBe(
      `attachment; filename="_script_.wav"; filename*=UTF-8''%22%3E%3Cscript%3E.wav`,
    );
    expect(attachment('')).toBe(`attachment; filename="download"; filename*=UTF-8''`);
  });
});
