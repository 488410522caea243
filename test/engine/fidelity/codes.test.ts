import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_CODES } from '../../../src/engine/notification-codes.js';
import { callIn, harness, rcml } from '../harness.js';

/**
 * Every notification carries a numeric code, as the platform's notifications do (its
 * NotificationsDao records an int error code): the engine's own warnings get numbers in the
 * platform's ranges, the library code staying at the head of the message.
 */

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('numeric notification codes', () => {
  it('the engine own warnings reach the sink with numbers, the library code kept in the message', async () => {
    const h = harness({
      '/w': rcml(
        '<Say>hi</Say><Frobnicate/><Gather><Hangup/></Gather><Leave/><Dial><Conference maxParticipants="1">r</Conference></Dial><Reject/>',
      ),
    });
    h.engine.setNumber('+15559998', { voiceUrl: 'http://app.test/w' });
    h.engine.incomingCall('+15550003', '+15559998');
    await callIn(h, '/w');
    h.engine.incomingCall('+15550004', '+15550404');
    await h.engine.runUntilIdle();
    const seen = h.notifications.map((n) => [n.code, n.message.slice(0, n.message.indexOf(':'))]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['12210', 'rcml.unknown-verb'],
        ['12202', 'rcml.nesting'],
        ['14301', 'engine.leave-outside-queue'],
        ['13237', 'engine.conference-full'],
        ['13820', 'engine.reject-answered'],
        ['21403', 'engine.unknown-number'],
      ]),
    );
    for (const n of h.notifications) expect(n.code).toMatch(/^\d{5}$/);
  });

  it('every library code the sources name has a number, listed in docs/engine.md', () => {
    const named = new Set<string>();
    for (const file of sources('src/engine').concat(sources('src/rcml'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/'((?:engine|rcml|xml)\.[a-z-]+)'/g))
        named.add(m[1]);
    }
    expect([...named].filter((code) => !Object.hasOwn(NOTIFICATION_CODES, code))).toEqual([]);
    const docs = readFileSync('docs/engine.md', 'utf8');
    for (const [library, numeric] of Object.entries(NOTIFICATION_CODES)) {
      expect(docs).toContain(`| ${numeric} | \`${library}\``);
    }
  });
});
