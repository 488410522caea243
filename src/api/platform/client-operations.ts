/**
 * The Clients operations (an extension: the platform's interface does not show them): what each
 * route takes and answers, for the OpenAPI document and the handlers' checks.
 */
import { z } from 'zod';
import { pagingQuery, textQuery } from '../http/query.js';
import { sidParam } from '../openapi/components.js';
import type { RouteDeclaration } from '../openapi/declare.js';
import * as s from './schemas.js';

const JSON_OR_XML = { bare: 'xml' } as const;
const account = { AccountSid: sidParam('AC') };
const client = { ...account, ClientSid: sidParam('CL') };

/** Login: letters, digits, `.`, `_`, `-`; 1 to 64 characters (the user part of `client:`, of REGISTER). */
export const LOGIN_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 128;

const method = z
  .string()
  .transform((v) => v.toUpperCase())
  .pipe(z.enum(['GET', 'POST'], { error: 'expected GET or POST' }));
// Empty clears the field on update; a repeated field arrives joined by a space, which no URL holds.
const url = z.union([
  z.literal(''),
  z
    .url({ protocol: /^https?$/, error: 'expected an absolute http(s) URL' })
    .refine((v) => !/\s/.test(v), 'expected one absolute http(s) URL (given more than once?)'),
]);

const clientFields = {
  Login: z.string().regex(LOGIN_PATTERN, 'expected 1 to 64 letters, digits, ".", "_" or "-"'),
  Password: z
    .string()
    .regex(
      new RegExp(`^[\\x20-\\x7e]{${MIN_PASSWORD},${MAX_PASSWORD}}$`),
      `expected ${MIN_PASSWORD} to ${MAX_PASSWORD} printable ASCII characters`,
    ),
  FriendlyName: z
    .string()
    .trim()
    .min(1, 'must be 1 to 256 characters')
    .max(256, 'must be 1 to 256 characters'),
  Status: z.enum(['active', 'inactive'], { error: 'expected active or inactive' }),
  VoiceUrl: url,
  VoiceMethod: method,
  VoiceFallbackUrl: url,
  VoiceFallbackMethod: method,
  VoiceApplicationSid: z.union([
    z.literal(''),
    z.string().regex(/^AP[0-9a-fA-F]{32}$/, 'expected AP and 32 hex digits'),
  ]),
};

/** Form of `POST .../Clients`: Login and Password required (FriendlyName defaults to the login). */
export const createClientSchema = z.object({
  ...clientFields,
  FriendlyName: clientFields.FriendlyName.optional(),
  Status: clientFields.Status.optional(),
  VoiceUrl: clientFields.VoiceUrl.optional(),
  VoiceMethod: clientFields.VoiceMethod.optional(),
  VoiceFallbackUrl: clientFields.VoiceFallbackUrl.optional(),
  VoiceFallbackMethod: clientFields.VoiceFallbackMethod.optional(),
  VoiceApplicationSid: clientFields.VoiceApplicationSid.optional(),
});

/** Form of `POST .../Clients/{ClientSid}`: any field, each replacing the stored one. */
export const updateClientSchema = createClientSchema.partial();

export const listClients: RouteDeclaration = {
  operationId: 'listClients',
  tag: 'Clients',
  summary: "The account's clients, in creation order (extension)",
  path: '/Accounts/{AccountSid}/Clients',
  params: account,
  formats: JSON_OR_XML,
  query: z.object({
    ...pagingQuery,
    Login: textQuery('The client of this login'),
    FriendlyName: textQuery('Clients of this name'),
  }),
  responses: { 200: { description: 'One page of clients', schema: s.ClientList } },
};

export const createClient: RouteDeclaration = {
  operationId: 'createClient',
  tag: 'Clients',
  summary: 'Create a client that registers over SIP as Login (extension)',
  description: 'A login another client of the account has answers 409. The password is never answered.',
  path: '/Accounts/{AccountSid}/Clients',
  params: account,
  formats: JSON_OR_XML,
  body: { form: createClientSchema },
  responses: {
    200: { description: 'The new client', schema: s.Client },
    201: { description: 'The new client (2010-04-01 dialect)', schema: s.Client },
  },
};

export const getClient: RouteDeclaration = {
  operationId: 'getClient',
  tag: 'Clients',
  summary: 'One client (extension)',
  path: '/Accounts/{AccountSid}/Clients/{ClientSid}',
  params: client,
  formats: JSON_OR_XML,
  responses: { 200: { description: 'The client', schema: s.Client } },
};

export const updateClient: RouteDeclaration = {
  operationId: 'updateClient',
  tag: 'Clients',
  summary: "Change a client's fields (extension)",
  description: 'An empty VoiceUrl, VoiceFallbackUrl or VoiceApplicationSid clears it.',
  path: '/Accounts/{AccountSid}/Clients/{ClientSid}',
  params: client,
  formats: JSON_OR_XML,
  body: { form: updateClientSchema },
  responses: { 200: { description: 'The client', schema: s.Client } },
};

export const deleteClient: RouteDeclaration = {
  operationId: 'deleteClient',
  tag: 'Clients',
  summary: 'Delete a client (its SIP registration ends with it) (extension)',
  path: '/Accounts/{AccountSid}/Clients/{ClientSid}',
  params: client,
  formats: { bare: 'json' },
  responses: { 204: { description: 'Deleted' } },
};
