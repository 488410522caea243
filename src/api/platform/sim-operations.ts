/** The operations of the `/sim` extension (simulation control; see docs/api.md). */
import { z } from 'zod';
import type { RouteDeclaration } from '../openapi/declare.js';
import { Call, SimClock, SimDigits, SimNumber, SimSpeech } from './schemas.js';

const seconds = z.number({ error: 'expected a number of seconds' }).min(0, 'must be >= 0');

/** Body of `POST /sim/Parties` (JSON), also its answer. */
export const partySchema = z.strictObject({
  address: z.string({ error: 'is required' }).min(1, 'is required'),
  outcome: z
    .enum(['answer', 'busy', 'no-answer', 'fail'], { error: 'expected answer, busy, no-answer or fail' })
    .optional(),
  answerAfter: seconds.optional(),
  hangupAfter: seconds.optional(),
  digits: z
    .array(z.strictObject({ at: seconds, keys: z.string().regex(/^[0-9*#wW]+$/, 'expected keys 0-9, *, #') }))
    .optional(),
  speech: z.array(z.strictObject({ at: seconds, text: z.string().min(1, 'is required') })).optional(),
});

/** A field that must be given, not empty. */
const required = () => z.string({ error: 'is required' }).min(1, 'is required');

/** Body of `POST /sim/Calls` (`SipHeader_<name>` fields besides). */
export const simCallFields = z.looseObject({ From: required(), To: required().describe('A routed number') });

/** Body of `POST /sim/Calls/{CallSid}/Digits`. */
export const digitsFields = z.object({
  Digits: required()
    .regex(/^[0-9*#wW]+$/, 'expected keys 0-9, *, # (w waits half a second)')
    .describe('0-9, *, #; w waits half a second'),
});

/** Body of `POST /sim/Calls/{CallSid}/Speech`. */
export const speechFields = z.object({ Text: required() });

/** Body of `POST /sim/Advance`. */
export const advanceFields = z.object({
  Seconds: required()
    .regex(/^\d+(\.\d+)?$/, {
      error: (iss) => `expected a non-negative number, got ${JSON.stringify(iss.input)}`,
    })
    .describe('Decimal seconds'),
});

const callSid = { CallSid: z.string().describe('A live call of the account (`CA` + 32 hex digits)') };
const ok = (schema: z.ZodType, description: string) => ({ 200: { description, schema } });

export const createSimCall: RouteDeclaration = {
  operationId: 'createSimCall',
  tag: 'Sim',
  summary: 'Place an inbound call',
  description:
    '`SipHeader_<name>` fields are SIP headers of the invitation; a repeated one keeps every value, top-most first. A call to a number another account owns answers 403 `simulation-off` where the server keeps shared simulation off (`rcml serve` on the real clock without `--sim`).',
  body: { form: simCallFields },
  responses: ok(Call, 'The new call'),
};

export const setSimNumber: RouteDeclaration = {
  operationId: 'setSimNumber',
  tag: 'Sim',
  summary: 'Route inbound calls to a number',
  description:
    "The number becomes the account's. A number another account owns (Call Queuing, `--number`, or set here first) answers 409 `number-unavailable`.",
  body: {
    form: z.object({
      Number: z.string().describe('A number, `client:<name>` or `sip:<user>@<host>`'),
      VoiceUrl: z.string().optional().describe('Absolute URL; give it or ApplicationSid'),
      ApplicationSid: z.string().optional().describe('A Visual Designer application of the account'),
      VoiceMethod: z.enum(['GET', 'POST']).optional(),
    }),
  },
  responses: ok(SimNumber, 'The route'),
};

export const setSimParty: RouteDeclaration = {
  operationId: 'setSimParty',
  tag: 'Sim',
  summary: "Set a party's behaviour (seconds)",
  description:
    'Parties are shared by every account: a server that keeps shared simulation off (`rcml serve` on the real clock without `--sim`) answers 403 `simulation-off`.',
  body: { json: partySchema },
  responses: ok(partySchema, 'The behaviour set'),
};

export const sendSimDigits: RouteDeclaration = {
  operationId: 'sendSimDigits',
  tag: 'Sim',
  summary: 'The far end of a live call presses keys',
  path: '/Calls/{CallSid}/Digits',
  params: callSid,
  body: {
    form: z.object({
      Digits: z
        .string()
        .regex(/^[0-9*#wW]+$/)
        .describe('0-9, *, #; w waits half a second'),
    }),
  },
  responses: ok(SimDigits, 'The keys sent'),
};

export const sendSimSpeech: RouteDeclaration = {
  operationId: 'sendSimSpeech',
  tag: 'Sim',
  summary: 'The far end of a live call says a phrase',
  path: '/Calls/{CallSid}/Speech',
  params: callSid,
  body: { form: speechFields },
  responses: ok(SimSpeech, 'The phrase sent'),
};

export const advanceSimClock: RouteDeclaration = {
  operationId: 'advanceSimClock',
  tag: 'Sim',
  summary: 'Advance the virtual clock, running everything due on the way',
  description:
    "The clock is every account's: a server that keeps shared simulation off answers 403 `simulation-off`; a real clock answers 409 `clock-not-virtual`.",
  body: {
    form: z.object({
      Seconds: z
        .string()
        .regex(/^\d+(\.\d+)?$/)
        .describe('Decimal seconds'),
    }),
  },
  responses: ok(SimClock, 'The new time'),
};
