import { z } from 'zod';
import { createCallParamsSchema } from '../engine/create-call-schema.js';
import { modifyCallParamsSchema } from '../engine/modify-call-schema.js';
import type { RcmlHandler } from '../engine/types.js';
import { checkSpecSchema } from './check-schema.js';

const seconds = z.number().finite().nonnegative();
const method = z.enum(['GET', 'POST']);
const url = z.string().refine((v) => URL.canParse(v), { message: 'must be an absolute URL' });

/** How a simulated party behaves (times in seconds; digits/speech/hangupAfter from the answer). */
export const partySchema = z
  .object({
    outcome: z.enum(['answer', 'busy', 'no-answer', 'fail']).optional(),
    answerAfter: seconds.optional(),
    digits: z
      .array(z.object({ at: seconds, keys: z.string().regex(/^[0-9*#]+$/, 'keys: 0-9, * or #') }).strict())
      .optional(),
    speech: z.array(z.object({ at: seconds, text: z.string().min(1) }).strict()).optional(),
    hangupAfter: seconds.optional(),
  })
  .strict();

/** One answer of an app: used when every `when` parameter equals the request's. */
const appVariantSchema = z
  .object({
    when: z.record(z.string(), z.string()).optional(),
    rcml: z.string(),
    contentType: z.string().optional(),
    /** HTTP status of the answer. Default 200. */
    status: z.number().int().min(100).max(599).optional(),
  })
  .strict();

/** An in-process handler (programmatic scenarios only: a JSON file cannot hold one). */
const appFunctionSchema = z.custom<RcmlHandler>((v) => typeof v === 'function', {
  message: 'an RCML string, a list of variants or a handler function',
});

const numberSchema = z
  .object({
    voiceUrl: url,
    voiceMethod: method.optional(),
    voiceFallbackUrl: url.optional(),
    voiceFallbackMethod: method.optional(),
    statusCallback: url.optional(),
    statusCallbackMethod: method.optional(),
    statusCallbackEvent: z.array(z.enum(['initiated', 'ringing', 'answered', 'completed'])).optional(),
  })
  .strict();

const inboundCallSchema = z
  .object({
    at: seconds,
    from: z.string().min(1),
    to: z.string().min(1),
    callerName: z.string().optional(),
    /** SIP headers; a list repeats the header (`Diversion`, `History-Info`), top-most first. */
    headers: z.record(z.string(), z.union([z.string(), z.array(z.string()).min(1)])).optional(),
  })
  .strict();

const outboundCallSchema = z.object({ at: seconds, api: createCallParamsSchema }).strict();

/** A live modification at `at`: of the call placed by `calls[callIndex]`, or of `callSid`. */
const modifySchema = z
  .object({
    at: seconds,
    callSid: z.string().min(1).optional(),
    callIndex: z.number().int().nonnegative().optional(),
    params: modifyCallParamsSchema,
  })
  .strict()
  .refine((m) => (m.callSid === undefined) !== (m.callIndex === undefined), {
    message: 'give exactly one of callSid or callIndex',
  });

/**
 * A participant muted or unmuted at `at` (`engine.muteParticipant`): the call placed by
 * `calls[callIndex]`, or `callSid`, in the conference named (or with the sid) `conference`.
 */
const muteSchema = z
  .object({
    at: seconds,
    conference: z.string().min(1),
    callSid: z.string().min(1).optional(),
    callIndex: z.number().int().nonnegative().optional(),
    muted: z.boolean(),
  })
  .strict()
  .refine((m) => (m.callSid === undefined) !== (m.callIndex === undefined), {
    message: 'give exactly one of callSid or callIndex',
  });

/** A scenario file (`rcml simulate`). See docs/scenario.md. */
export const scenarioSchema = z
  .object({
    seed: z.number().int().default(1),
    until: seconds.refine((v) => v > 0, 'must be more than 0'),
    epoch: z.iso.datetime().optional(),
    accountSid: z
      .string()
      .regex(/^AC[0-9a-f]{32}$/, 'AC followed by 32 hex digits')
      .optional(),
    apps: z
      .record(url, z.union([z.string(), z.array(appVariantSchema).min(1), appFunctionSchema]))
      .default({}),
    numbers: z.record(z.string(), numberSchema).default({}),
    parties: z.record(z.string(), partySchema).default({}),
    defaultParty: partySchema.optional(),
    queues: z
      .object({ maxSize: z.number().int().min(1).max(5000).optional() })
      .strict()
      .optional(),
    calls: z.array(z.union([inboundCallSchema, outboundCallSchema])).default([]),
    modify: z.array(modifySchema).default([]),
    mute: z.array(muteSchema).default([]),
    /** How `rcml check` varies this scenario and what it checks; `rcml simulate` ignores it. */
    check: checkSpecSchema.optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    for (const list of ['modify', 'mute'] as const) {
      s[list].forEach((m, i) => {
        if (m.callIndex !== undefined && m.callIndex >= s.calls.length) {
          ctx.addIssue({
            code: 'custom',
            path: [list, i, 'callIndex'],
            message: `no call ${m.callIndex}: calls has ${s.calls.length} entries`,
          });
        }
      });
    }
  });

/** A validated scenario. */
export type Scenario = z.infer<typeof scenarioSchema>;
/** A scenario as written in a file (defaults not yet applied). */
export type ScenarioInput = z.input<typeof scenarioSchema>;
