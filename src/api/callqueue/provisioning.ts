import type { Hono } from 'hono';
import { z } from 'zod';
import { badParameter } from '../http/errors.js';
import { type CallQueueDeps, type CallQueueEnv, readJsonObject } from './context.js';
import { normalizePhoneNumber } from './phone-number.js';
import { numberJson } from './record.js';
import type { ProvisionRequest } from './service.js';

const requiredString = () =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });

const absoluteHttpUrl = requiredString().refine((v) => {
  if (!URL.canParse(v)) return false;
  const { protocol } = new URL(v);
  return protocol === 'http:' || protocol === 'https:';
}, 'must be an absolute http(s) URL');

/** Body of `POST /callqueue/provisioning`. */
// Lenient as the platform is: fields it does not know are ignored, and the method is read in any case.
export const provisionSchema = z.object({
  applicationUrl: absoluteHttpUrl,
  applicationUrlMethod: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
      z.enum(['GET', 'POST'], { error: 'must be GET or POST (any case)' }),
    )
    .default('POST'),
  phoneNumber: requiredString(),
  override: z.boolean({ error: 'must be true or false' }).default(false),
  byoc: z.boolean({ error: 'must be true or false' }).default(true),
});

/** Validates a provisioning body; 400 naming the first bad field. */
export function parseProvisionRequest(body: Record<string, unknown>): ProvisionRequest {
  const parsed = provisionSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field =
      issue.code === 'unrecognized_keys' ? issue.keys[0] : (issue.path.join('.') as string) || 'body';
    throw badParameter(field, issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message);
  }
  const phoneNumber = normalizePhoneNumber(parsed.data.phoneNumber);
  if (!phoneNumber) {
    throw badParameter(
      'phoneNumber',
      `expected digits with the country code (7 to 15, optionally after +), got ${JSON.stringify(parsed.data.phoneNumber)}`,
    );
  }
  return { ...parsed.data, phoneNumber };
}

/** `POST /callqueue/provisioning`: 200 with the Call Queuing number record. */
export function registerProvisioning(app: Hono<CallQueueEnv>, deps: CallQueueDeps): void {
  app.post('/provisioning', async (c) => {
    const request = parseProvisionRequest(await readJsonObject(c));
    const number = await deps.service.provision(c.get('account').sid, request);
    return c.json(numberJson(number, deps.service.baseUrl));
  });
}
