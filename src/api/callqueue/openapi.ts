/**
 * The Call Queuing routes for the OpenAPI document. The provisioning body schema is the one the
 * route validates with.
 */
import { z } from 'zod';
import {
  type AreaDeclaration,
  authenticatedAnswers,
  jsonAnswer,
  jsonBody,
  platformError,
  type RouteDeclaration,
  type UntaggedRoute,
  writeAnswers,
} from '../http/openapi-kit.js';
import { CALLBACK_STATUS_NAMES } from './callback.js';
import { provisionSchema } from './provisioning.js';

const TAGS = ['Call Queuing'];
const rfc2822 = z.string().describe('RFC 2822, UTC');
const nullString = z.null().describe('Returned but unused');

export const callQueueNumber = z
  .object({
    sid: z.string().describe('PN and 32 hex digits'),
    phoneNumber: z.string().describe('E.164'),
    accountSid: z.string(),
    friendlyName: z.string(),
    dateCreated: rfc2822,
    dateUpdated: rfc2822,
    voiceUrl: z.string().describe('The application URL plus CallQueueNumberSid and CallQueueState'),
    voiceMethod: z.enum(['GET', 'POST']),
    statusCallback: z.string().describe('{base_url}/callqueue/callback'),
    statusCallbackMethod: z.literal('POST'),
    apiVersion: z.string(),
    isSIP: z.boolean(),
    uri: z.string(),
    voiceFallbackUrl: nullString,
    voiceFallbackMethod: z.literal('POST'),
    voiceCallerIdLookup: z.literal(false),
    voiceApplicationSid: nullString,
    smsUrl: nullString,
    smsMethod: z.literal('POST'),
    smsFallbackUrl: nullString,
    smsFallbackMethod: z.literal('POST'),
    smsApplicationSid: nullString,
  })
  .meta({ id: 'CallQueueNumber' });

export const callQueueNumberList = z
  .object({ numbers: z.array(callQueueNumber) })
  .meta({ id: 'CallQueueNumberList' });

const side = z.enum(['dialer', 'enqueued']).describe('dialer: customers (Dial+Queue); enqueued: agents');

export const callQueueCalls = z
  .object({
    numberSid: z.string(),
    phoneNumber: z.string(),
    totals: z.object({
      calls: z.number().int(),
      answered: z.number().int(),
      queued: z.number().int(),
      bridged: z.number().int(),
      abandoned: z.number().int(),
      ended: z.number().int(),
    }),
    calls: z.array(
      z.object({
        callSid: z.string(),
        status: z.string().optional().describe('Last CallStatus reported'),
        answered: z.boolean(),
        queued: z.boolean(),
        queueName: z.string().optional(),
        side: side.optional(),
        partners: z.array(z.string()),
        abandoned: z.boolean(),
        ended: z.boolean(),
        duration: z.number().optional(),
        callbacks: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'CallQueueCalls' });

export const callQueueEvents = z
  .object({
    numberSid: z.string(),
    events: z.array(
      z.object({
        id: z.number().int().describe('Recording order'),
        callSid: z.string(),
        type: z.enum(['status', 'enqueue', 'match', 'leave', 'timeout', 'queue-full', 'rejoin', 'drop']),
        date: z.iso.datetime(),
        status: z.string().optional(),
        sequenceNumber: z.number().int().optional(),
        duration: z.number().optional(),
        queueSid: z.string().optional(),
        queueName: z.string().optional(),
        side: side.optional(),
        partnerCallSid: z.string().optional(),
        reason: z.string().optional(),
        position: z.number().int().optional(),
        waitMs: z.number().optional(),
      }),
    ),
  })
  .meta({ id: 'CallQueueEvents' });

const queueSide = z.object({
  size: z.number().int(),
  servedCount: z.number().int(),
  averageWaitMs: z.number().int(),
  members: z.array(
    z.object({
      callSid: z.string(),
      position: z.number().int().min(1),
      waitMs: z.number(),
      enqueuedAt: z.iso.datetime(),
      from: z.string().nullable(),
      to: z.string().nullable(),
      numberSid: z.string().nullable(),
    }),
  ),
});

export const callQueueQueue = z
  .object({
    sid: z.string().describe('QU and 32 hex digits'),
    name: z.string(),
    accountSid: z.string(),
    dateCreated: rfc2822,
    at: z.iso.datetime().describe('When the state was read'),
    maxSize: z.number().int(),
    size: z.number().int(),
    servedCount: z.number().int(),
    averageWaitMs: z.number().int(),
    customers: queueSide,
    agents: queueSide,
    customerNumbers: z.array(z.string()),
    agentNumbers: z.array(z.string()),
  })
  .meta({ id: 'CallQueueQueue' });

export const callQueueQueueList = z
  .object({ queues: z.array(callQueueQueue) })
  .meta({ id: 'CallQueueQueueList' });

const MAX_SIZE_HINT = 'expected a whole number from 1 to 5000';
const maxSizeError = (issue: { input?: unknown }) =>
  issue.input === undefined
    ? `is required: ${MAX_SIZE_HINT}`
    : `${MAX_SIZE_HINT}, got ${JSON.stringify(issue.input)}`;

/** Body of `POST /callqueue/queues/{sid}`: only `maxSize` can change (the route validates with it). */
export const queueChangeBody = z.strictObject({
  maxSize: z
    .number({ error: maxSizeError })
    .int({ error: maxSizeError })
    .min(1, { error: maxSizeError })
    .max(5000, { error: maxSizeError })
    .describe('Size limit of each side'),
});

const callbackForm = z
  .looseObject({
    CallSid: z.string(),
    AccountSid: z.string(),
    To: z.string(),
    CallStatus: z.enum(CALLBACK_STATUS_NAMES),
    SequenceNumber: z
      .string()
      .regex(/^\d{1,6}$/)
      .optional(),
    CallDuration: z
      .string()
      .regex(/^\d{1,7}$/)
      .optional()
      .describe('Seconds'),
    Timestamp: z.string().optional().describe('RFC 2822'),
  })
  .describe('The form parameters of a status callback');

const sidParam = z.object({ sid: z.string() });
const badInput = platformError('A field is missing, unknown or malformed (named), or the body is not JSON');
const unknownNumber = platformError('No such number of the account');
const unknownQueue = platformError('No such queue of the account');
const noEngine = platformError('The server runs without a call engine (no-call-engine)');

function route(declaration: UntaggedRoute): RouteDeclaration {
  const auth = declaration.security ? {} : authenticatedAnswers;
  const writes = declaration.method === 'get' ? {} : writeAnswers;
  return { ...declaration, tags: TAGS, responses: { ...declaration.responses, ...auth, ...writes } };
}

const untagged: UntaggedRoute[] = [
  {
    method: 'post',
    path: '/provisioning',
    operationId: 'provisionCallQueueNumber',
    summary: 'Provision a number with its application URL',
    request: { body: jsonBody(provisionSchema) },
    responses: {
      200: jsonAnswer(callQueueNumber, 'The number record'),
      400: badInput,
      409: platformError('Already provisioned without override, or another account has the number'),
      413: platformError('The body exceeds the limit'),
    },
  },
  {
    method: 'post',
    path: '/callback',
    operationId: 'postCallQueueCallback',
    summary: "Where provisioned numbers' calls report their status (the platform posts, signed)",
    description:
      "No credentials: the request must carry `X-Twilio-Signature` made with the posted account's signing key, as the engine signs its status callbacks.",
    security: [],
    request: {
      body: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': { schema: callbackForm },
          'application/json': { schema: callbackForm },
        },
      },
    },
    responses: {
      204: { description: 'Recorded' },
      400: platformError('A required parameter is missing or malformed, or the status is unknown (named)'),
      403: platformError(
        'No valid signature of the account (invalid-signature), or not a call of this account to a provisioned number (not-owner)',
      ),
      429: platformError('The call already has 20 status callbacks recorded (too-many-callbacks)'),
      413: platformError('The body exceeds the limit'),
      415: platformError('Neither form-encoded nor JSON'),
    },
  },
  {
    method: 'get',
    path: '/numbers',
    operationId: 'listCallQueueNumbers',
    summary: "The account's numbers, oldest first",
    responses: { 200: jsonAnswer(callQueueNumberList, 'The numbers') },
  },
  {
    method: 'get',
    path: '/numbers/{sid}',
    operationId: 'getCallQueueNumber',
    summary: 'One number',
    request: { params: sidParam },
    responses: { 200: jsonAnswer(callQueueNumber, 'The number'), 404: unknownNumber },
  },
  {
    method: 'delete',
    path: '/numbers/{sid}',
    operationId: 'unprovisionCallQueueNumber',
    summary: 'Unprovision a number',
    request: { params: sidParam },
    responses: { 204: { description: 'Unprovisioned' }, 404: unknownNumber },
  },
  {
    method: 'get',
    path: '/numbers/{sid}/calls',
    operationId: 'listCallQueueNumberCalls',
    summary: 'One summary per call to the number, and totals',
    request: { params: sidParam },
    responses: { 200: jsonAnswer(callQueueCalls, 'The calls'), 404: unknownNumber },
  },
  {
    method: 'get',
    path: '/numbers/{sid}/events',
    operationId: 'listCallQueueNumberEvents',
    summary: 'Every recorded event of the number, in recording order',
    request: { params: sidParam, query: z.object({ CallSid: z.string().optional() }) },
    responses: { 200: jsonAnswer(callQueueEvents, 'The events'), 404: unknownNumber },
  },
  {
    method: 'get',
    path: '/queues',
    operationId: 'listCallQueueQueues',
    summary: "The account's queues with their live state",
    request: { query: z.object({ Name: z.string().optional().describe('Only the queue of this name') }) },
    responses: { 200: jsonAnswer(callQueueQueueList, 'The queues'), 501: noEngine },
  },
  {
    method: 'get',
    path: '/queues/{sid}',
    operationId: 'getCallQueueQueue',
    summary: "One queue's live state",
    request: { params: sidParam },
    responses: { 200: jsonAnswer(callQueueQueue, 'The queue'), 404: unknownQueue, 501: noEngine },
  },
  {
    method: 'post',
    path: '/queues/{sid}',
    operationId: 'updateCallQueueQueue',
    summary: "Change a queue's size limit",
    request: { params: sidParam, body: jsonBody(queueChangeBody) },
    responses: {
      200: jsonAnswer(callQueueQueue, 'The queue'),
      400: badInput,
      404: unknownQueue,
      413: platformError('The body exceeds the limit'),
      501: noEngine,
    },
  },
];
const routes = untagged.map(route);

/** The Call Queuing routes, mounted at `{base_url}/callqueue`. */
export const callQueueOpenApi: AreaDeclaration = { mount: '/callqueue', routes };
