import type { CallRecord, RecordingRecord } from '../../src/engine/records.js';
import { hashAuthToken } from '../../src/store/credentials.js';
import type { AccountRecord } from '../../src/store/types.js';

export const ACCOUNT_A = `AC${'a'.repeat(32)}`;
export const ACCOUNT_B = `AC${'b'.repeat(32)}`;

/** The auth token of the fixture account `sid`. */
export const tokenOf = (sid: string) => `token-of-${sid.slice(-4)}`;

/** The signing key of the fixture account `sid`. */
export const signingKeyOf = (sid: string) => `signing-key-of-${sid.slice(-4)}`;

/** An account whose token is `authToken` (default {@link tokenOf}); the same record every call. */
export function account(sid: string, authToken = tokenOf(sid)): AccountRecord {
  return {
    sid,
    authTokenHash: hashAuthToken(authToken, Buffer.alloc(16, 7)),
    signingKey: signingKeyOf(sid),
    friendlyName: 'test',
    dateCreated: 0,
    dateUpdated: 0,
  };
}

/** A completed call; override any field. */
export function call(n: number, over: Partial<CallRecord> = {}): CallRecord {
  return {
    sid: `CA${n.toString(16).padStart(32, '0')}`,
    accountSid: ACCOUNT_A,
    direction: 'outbound-api',
    from: '+15550000001',
    to: '+15550000002',
    status: 'completed',
    instanceId: 'ID1',
    apiVersion: '2012-04-24',
    dateCreated: Date.UTC(2024, 2, 5, 12, 0, 0) + n * 1000,
    dateUpdated: Date.UTC(2024, 2, 5, 12, 0, 0) + n * 1000,
    startTime: Date.UTC(2024, 2, 5, 12, 0, 1) + n * 1000,
    endTime: Date.UTC(2024, 2, 5, 12, 0, 11) + n * 1000,
    duration: 10,
    ...over,
  };
}

export function recording(n: number, over: Partial<RecordingRecord> = {}): RecordingRecord {
  return {
    sid: `RE${n.toString(16).padStart(32, '0')}`,
    accountSid: ACCOUNT_A,
    callSid: call(n).sid,
    duration: 1.5,
    apiVersion: '2012-04-24',
    dateCreated: Date.UTC(2024, 2, 5, 12, 0, 0) + n * 60_000,
    dateUpdated: Date.UTC(2024, 2, 5, 12, 0, 0) + n * 60_000,
    ...over,
  };
}

/** A valid 8 kHz mono 16-bit PCM WAV of `samples` samples (a ramp, so bytes differ). */
export function wav(samples: number): Uint8Array {
  const data = samples * 2;
  const buf = Buffer.alloc(44 + data);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + data, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(8000, 24);
  buf.writeUInt32LE(16000, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(data, 40);
  for (let i = 0; i < samples; i++) buf.writeInt16LE((i * 97) % 30000, 44 + i * 2);
  return new Uint8Array(buf);
}
