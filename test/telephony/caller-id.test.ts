/** The caller id of a call no client authenticated: nothing in it reads as a client or breaks a header. */
import { describe, expect, it } from 'vitest';
import type { UasInvite } from '../../src/telephony/sip/uas-invite.js';
import { plainCallerId } from '../../src/telephony/sip-service.js';

const from = (callerUser: string) => plainCallerId({ callerUser } as UasInvite);

describe('plainCallerId', () => {
  it('keeps a number or a user name as it is', () => {
    expect(from('+15551111')).toBe('+15551111');
    expect(from('alice')).toBe('alice');
  });

  it('never gives client: to a caller nobody authenticated', () => {
    expect(from('client:alice')).toBe('client%3Aalice');
    expect(from('CLIENT:alice')).toBe('client%3Aalice');
  });

  it('percent-encodes CR, LF, NUL, quotes and angle brackets; an empty user is anonymous', () => {
    expect(from('bob\r\nX-Evil: 1')).toBe('bob%0D%0AX-Evil: 1');
    expect(from('<sip:admin>"')).toBe('%3Csip:admin%3E%22');
    expect(from('')).toBe('anonymous');
  });
});
