/** In-memory designer store: the library default. Records are copied in and out. */
import type { DesignerStore } from './ports.js';
import type { DesignerAppRecord, DesignerParameter } from './types.js';

const copy = <T>(value: T): T => structuredClone(value);
const bytesOf = (line: string) => Buffer.byteLength(line, 'utf8') + 1;

/** Creates an empty in-memory designer store. */
export function createMemoryDesignerStore(): DesignerStore {
  const apps = new Map<string, DesignerAppRecord>();
  const parameters = new Map<string, DesignerParameter[]>();
  const media = new Map<string, Map<string, Uint8Array>>();
  const logs = new Map<string, { lines: string[]; bytes: number }>();

  const nameTaken = (app: DesignerAppRecord) =>
    [...apps.values()].some(
      (a) => a.accountSid === app.accountSid && a.name === app.name && a.sid !== app.sid,
    );
  const owned = (accountSid: string, sid: string) => {
    const app = apps.get(sid);
    return app && app.accountSid === accountSid ? app : undefined;
  };

  return {
    apps: {
      async create(app) {
        if (nameTaken(app)) return 'duplicate-name';
        apps.set(app.sid, copy(app));
        return 'created';
      },
      async get(accountSid, sid) {
        const app = owned(accountSid, sid);
        return app && copy(app);
      },
      async list(accountSid) {
        return [...apps.values()].filter((a) => a.accountSid === accountSid).map(copy);
      },
      async update(app) {
        if (!owned(app.accountSid, app.sid)) return 'missing';
        if (nameTaken(app)) return 'duplicate-name';
        apps.set(app.sid, copy(app));
        return 'updated';
      },
      async delete(accountSid, sid) {
        if (!owned(accountSid, sid)) return false;
        apps.delete(sid);
        parameters.delete(sid);
        media.delete(sid);
        logs.delete(sid);
        return true;
      },
    },
    parameters: {
      async list(appSid) {
        return copy(parameters.get(appSid) ?? []);
      },
      async add(appSid, parameter) {
        const list = parameters.get(appSid) ?? [];
        if (list.some((p) => p.name === parameter.name)) return false;
        list.push(copy(parameter));
        parameters.set(appSid, list);
        return true;
      },
      async update(appSid, parameter) {
        const list = parameters.get(appSid) ?? [];
        const i = list.findIndex((p) => p.name === parameter.name);
        if (i < 0) return false;
        list[i] = copy(parameter);
        return true;
      },
      async delete(appSid, name) {
        const list = parameters.get(appSid) ?? [];
        const i = list.findIndex((p) => p.name === name);
        if (i < 0) return false;
        list.splice(i, 1);
        return true;
      },
    },
    media: {
      async put(appSid, file) {
        const files = media.get(appSid) ?? new Map<string, Uint8Array>();
        files.set(file.filename, new Uint8Array(file.bytes));
        media.set(appSid, files);
      },
      async get(appSid, filename) {
        const bytes = media.get(appSid)?.get(filename);
        return bytes && { filename, bytes: new Uint8Array(bytes) };
      },
      async list(appSid) {
        return [...(media.get(appSid)?.keys() ?? [])].sort();
      },
      async delete(appSid, filename) {
        return media.get(appSid)?.delete(filename) ?? false;
      },
    },
    logs: {
      async append(appSid, lines, maxBytes) {
        const log = logs.get(appSid) ?? { lines: [], bytes: 0 };
        for (const line of lines) {
          log.lines.push(line);
          log.bytes += bytesOf(line);
        }
        let drop = 0;
        while (log.bytes > maxBytes && drop < log.lines.length - 1) log.bytes -= bytesOf(log.lines[drop++]);
        if (drop > 0) log.lines.splice(0, drop);
        logs.set(appSid, log);
      },
      async read(appSid) {
        return [...(logs.get(appSid)?.lines ?? [])];
      },
      async clear(appSid) {
        logs.delete(appSid);
      },
    },
    async close() {},
  };
}
