/** The application log: `GET` (text lines) and `DELETE` `/apps/{sid}/log`. */
import type { Hono } from 'hono';
import { ApiError } from '../http/errors.js';
import { appOf, type DesignerDeps, type DesignerEnv } from './context.js';

export function registerLogs(app: Hono<DesignerEnv>, deps: DesignerDeps): void {
  app.get('/apps/:sid/log', async (c) => {
    const record = await appOf(c, deps);
    if (!record.settings.logging) {
      throw new ApiError(404, 'logging-off', `Application ${record.sid} has logging off: no log`);
    }
    await deps.runtime.flushLog(record.sid);
    const lines = await deps.config.designer.logs.read(record.sid);
    return c.text(lines.length > 0 ? `${lines.join('\n')}\n` : '', 200, {
      'Content-Type': 'text/plain; charset=utf-8',
    });
  });

  app.delete('/apps/:sid/log', async (c) => {
    const record = await appOf(c, deps);
    await deps.config.designer.logs.clear(record.sid);
    return c.json({ sid: record.sid, cleared: true });
  });
}
