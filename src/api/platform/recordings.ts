import type { Context, Hono } from 'hono';
import type { RecordingRecord } from '../../engine/records.js';
import { timeBounds } from '../http/dates.js';
import { notFound } from '../http/errors.js';
import { type Format, renderList, renderOne, splitFormat } from '../http/format.js';
import { pageDocument, parsePaging, windowOf } from '../http/paging.js';
import { parseSortBy } from '../http/params.js';
import { rangedBody } from '../http/range.js';
import { declaredQuery, declareRoute, type RouteDeclaration } from '../openapi/declare.js';
import { accountOf, formatOfPath, type PlatformDeps, type PlatformEnv, withFormats } from './context.js';
import * as ops from './operations.js';
import { recordingRep } from './representations.js';

const RECORDING_LIST = { json: 'recordings', xmlList: 'Recordings', xmlItem: 'Recording' };

/** True for the one unauthenticated route: `GET .../Recordings/{sid}.wav`. */
export function isRecordingAudio(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && /\/Accounts\/[^/]+\/Recordings\/[^/]+\.wav$/.test(path);
}

/** Recordings: list (also call-scoped), get, `.wav` download, delete. */
export function registerRecordings(app: Hono<PlatformEnv>, deps: PlatformDeps): void {
  const { store } = deps;

  const list = async (
    c: Context<PlatformEnv>,
    callSid: string | undefined,
    format: Format,
    declaration: RouteDeclaration,
  ) => {
    const accountSid = accountOf(c);
    const query = declaredQuery(c, declaration);
    const paging = parsePaging(query);
    const bounds = timeBounds(query);
    const page = await store.recordings.list({
      accountSid,
      callSid: callSid ?? query.CallSid,
      createdFrom: bounds.from,
      createdTo: bounds.to,
      sort: parseSortBy(query.SortBy, ops.RECORDING_SORT),
      ...windowOf(paging),
    });
    const doc = pageDocument({
      path: c.req.path,
      query,
      paging,
      page,
      rep: (r: RecordingRecord) => recordingRep(r, deps.fileBase),
      names: RECORDING_LIST,
      withLimit: true,
    });
    return renderList(c, format, doc);
  };

  app.on('GET', withFormats('/Accounts/:accountSid/Recordings'), declareRoute(ops.listRecordings), (c) =>
    list(c, undefined, formatOfPath(c.req.path), ops.listRecordings),
  );

  // Deprecated: the CallSid filter of the list replaces it.
  const callRecordings = declareRoute(ops.listCallRecordings);
  app.on('GET', withFormats('/Accounts/:accountSid/Calls/:callSid/Recordings'), callRecordings, async (c) => {
    const accountSid = accountOf(c);
    const callSid = c.req.param('callSid') ?? '';
    if (!(await store.calls.get(accountSid, callSid))) throw notFound('Call', callSid);
    return list(c, callSid, formatOfPath(c.req.path), ops.listCallRecordings);
  });

  app.get(
    '/Accounts/:accountSid/Recordings/:file',
    declareRoute(ops.getRecording, ops.getRecordingAudio),
    async (c) => {
      const file = c.req.param('file');
      if (file.endsWith('.wav')) {
        // No authentication: the recording must still belong to the account in the path.
        const sid = file.slice(0, -4);
        const wav = await store.recordings.wav(c.req.param('accountSid'), sid);
        if (!wav) throw notFound('Recording', sid);
        return rangedBody(wav, c.req.header('Range'), 'audio/wav', `${sid}.wav`);
      }
      const accountSid = accountOf(c);
      const { id, format } = splitFormat(file, 'xml');
      const recording = await store.recordings.get(accountSid, id);
      if (!recording) throw notFound('Recording', id);
      return renderOne(c, format, 'Recording', recordingRep(recording, deps.fileBase));
    },
  );

  app.delete('/Accounts/:accountSid/Recordings/:file', declareRoute(ops.deleteRecording), async (c) => {
    const accountSid = accountOf(c);
    const { id } = splitFormat(c.req.param('file'), 'xml');
    if (!(await store.recordings.delete(accountSid, id))) throw notFound('Recording', id);
    return c.body(null, 204);
  });
}
