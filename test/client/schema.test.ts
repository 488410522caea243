import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_SCHEMA_FILE,
  clientDocument,
  clientSchemaText,
  servedDocument,
} from '../../scripts/client-schema.js';

describe('the client types generated from the OpenAPI document', () => {
  it('are what the document the app serves now gives (else: npm run gen:client)', async () => {
    const committed = readFileSync(CLIENT_SCHEMA_FILE, 'utf8');
    const fresh = await clientSchemaText();
    expect(committed === fresh, 'src/client/schema.ts is out of date: run `npm run gen:client`').toBe(true);
  });

  it('keep the JSON and WAV routes of {api_root} and /sim, and only the schemas they reach', async () => {
    const doc = clientDocument(await servedDocument());
    const paths = Object.keys(doc.paths as object);
    const operations = Object.values(
      doc.paths as Record<string, Record<string, { operationId?: string }>>,
    ).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(paths.every((p) => /^\/platform\/2012-04-24\/.*\.(json|wav)$|^\/sim\//.test(p))).toBe(true);
    for (const id of [
      'listCalls',
      'createCall',
      'updateCall',
      'getRecording',
      'getRecordingAudio',
      'advanceSimClock',
    ]) {
      expect(operations).toContain(id);
    }
    expect(operations).not.toContain('listCallsXml');
    const schemas = Object.keys((doc.components as { schemas: object }).schemas);
    expect(schemas).toContain('Call');
    expect(schemas).not.toContain('Health');
  });
});
