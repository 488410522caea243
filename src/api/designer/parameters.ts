/** Parameters: values that override every variable of the application once built. */
import type { Hono } from 'hono';
import { z } from 'zod';
import { ApiError, notFound } from '../http/errors.js';
import { appOf, type DesignerDeps, type DesignerEnv } from './context.js';
import { parseJsonBody } from './input.js';

const variableName = z
  .string({ error: 'is required' })
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'must be a variable name: a letter, then letters, digits or _')
  .max(100, 'must be at most 100 characters');
const text = (max: number) =>
  z.string({ error: 'is required' }).max(max, `must be at most ${max} characters`);

/** Body of `POST /projects/{sid}/parameters`. */
export const createParameterBody = z.strictObject({
  name: variableName,
  description: text(1000),
  value: text(10_000).optional(),
});
/** Body of `PUT /projects/{sid}/parameters/{name}`. */
export const updateParameterBody = z.strictObject({
  description: text(1000).optional(),
  value: text(10_000).optional(),
});

/** `/projects/{sid}/parameters`. */
export function registerParameters(app: Hono<DesignerEnv>, deps: DesignerDeps): void {
  const repo = deps.config.designer.parameters;

  app.get('/projects/:sid/parameters', async (c) => {
    const record = await appOf(c, deps);
    return c.json({ parameters: await repo.list(record.sid) });
  });

  app.post('/projects/:sid/parameters', async (c) => {
    const record = await appOf(c, deps);
    const parameter = await parseJsonBody(c, createParameterBody);
    if (!(await repo.add(record.sid, parameter))) {
      throw new ApiError(409, 'duplicate-name', `name: parameter ${parameter.name} exists`, 'name');
    }
    return c.json(parameter, 201);
  });

  app.put('/projects/:sid/parameters/:name', async (c) => {
    const record = await appOf(c, deps);
    const name = c.req.param('name');
    const change = await parseJsonBody(c, updateParameterBody);
    const existing = (await repo.list(record.sid)).find((p) => p.name === name);
    if (!existing) throw notFound('Parameter', name);
    const updated = { ...existing, ...change };
    await repo.update(record.sid, updated);
    return c.json(updated);
  });

  app.delete('/projects/:sid/parameters/:name', async (c) => {
    const record = await appOf(c, deps);
    const name = c.req.param('name');
    if (!(await repo.delete(record.sid, name))) throw notFound('Parameter', name);
    return c.json({ name, deleted: true });
  });
}
