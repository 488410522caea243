/**
 * OpenAPI pieces of the enterprise areas (`/enterprises`, Auto Attendant, Task Router): their
 * envelopes, search parameters and answers, and the `/enterprises` routes. Body schemas are the
 * ones the routes validate with.
 */
import { z } from 'zod';
import {
  type AreaDeclaration,
  authenticatedAnswers,
  jsonAnswer,
  platformError,
  type ResponseDeclaration,
  type RouteDeclaration,
  type UntaggedRoute,
  writeAnswers,
} from '../http/openapi-kit.js';
import { createEnterpriseBody, updateEnterpriseBody } from './enterprises.js';
import { DEFAULT_SEARCH_PAGE_SIZE, MAX_SEARCH_PAGE_SIZE } from './search.js';

/** `{errorCode, message, data}`: the areas' error body. */
export const enterpriseErrorBody = z
  .object({
    errorCode: z.string().describe("The platform's code (e.g. 467), or invalid-parameter, not-found"),
    message: z.string(),
    data: z.unknown().describe('The request body, `{sid}`, `{parameter, value}` or null'),
  })
  .meta({ id: 'EnterpriseError' });

/** An answer with the areas' error body. */
export const enterpriseError = (description: string) => jsonAnswer(enterpriseErrorBody, description);

/** The 400 of malformed input. */
export const enterpriseBadInput = enterpriseError(
  'invalid-parameter: a field or query parameter is missing or malformed (named first in the message)',
);

/** `YYYY-MM-DDTHH:MM:SS+0000`. */
export const enterpriseTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/)
  .describe('YYYY-MM-DDTHH:MM:SS+0000 (UTC)');

/** `{code: 200, message: 'OK', data}`. */
export const okEnvelope = (data: z.ZodType, id: string) =>
  z.object({ code: z.literal(200), message: z.literal('OK'), data }).meta({ id });

/** The success envelope of a search, `data` holding a page of `record`s. */
export const searchEnvelope = (record: z.ZodType, id: string) =>
  okEnvelope(
    z.object({
      result: z.array(record),
      pageSize: z.number().int(),
      total: z.number().int(),
      page: z.number().int(),
      numPages: z.number().int(),
      start: z.number().int(),
      end: z.number().int(),
      uri: z.string(),
      firstPageUri: z.string(),
      nextPageUri: z.string().nullable().describe('null on the last page'),
    }),
    id,
  );

const dateFilter = z.string().optional().describe('YYYY-MM-DD (its midnight) or YYYY-MM-DDTHH:MM:SS, UTC');

/** Query of every search: paging, order and creation-time bounds. */
export const searchQuery = (sorts: readonly string[]) => {
  const sortBy = z
    .string()
    .optional()
    .describe(`<attribute>:<asc|desc>, attribute one of ${sorts.join(', ')}`);
  return z.object({
    page: z.coerce.number().int().min(0).optional().describe('Zero-based, default 0'),
    pageSize: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_PAGE_SIZE)
      .optional()
      .describe(`Default ${DEFAULT_SEARCH_PAGE_SIZE}`),
    SortBy: sortBy,
    sortBy: sortBy.describe('Another spelling of SortBy'),
    startTime: dateFilter,
    endTime: dateFilter,
  });
};

/** Path parameter `sid`. */
export const sidParam = z.object({ sid: z.string() });

/** Adds the answers every route of the areas has (authentication, and a store that cannot write). */
export const enterpriseRoute =
  (tags: string[]) =>
  (declaration: UntaggedRoute): RouteDeclaration => {
    const auth = declaration.security ? {} : authenticatedAnswers;
    const writes = declaration.method === 'get' ? {} : writeAnswers;
    // JSON and form bodies have the app's body limit; uploads have their own (an area code).
    const limited: Record<number, ResponseDeclaration> = declaration.request?.body?.content[
      'application/json'
    ]
      ? { 413: platformError('The body exceeds the limit') }
      : {};
    return { ...declaration, tags, responses: { ...declaration.responses, ...auth, ...writes, ...limited } };
  };

/** A JSON or form-encoded body (the areas read both). */
export const enterpriseBody = (schema: z.ZodType) => ({
  required: true,
  content: {
    'application/json': { schema },
    'application/x-www-form-urlencoded': { schema },
  },
});

export const enterprise = z
  .object({
    sid: z.string().describe('EN and 32 hex digits'),
    name: z.string(),
    accountEmail: z.string(),
    autoAttendant: z.boolean().describe('The enterprise has an Auto Attendant system'),
    dateCreated: enterpriseTimestamp,
    dateUpdated: enterpriseTimestamp,
    uri: z.string(),
  })
  .meta({ id: 'Enterprise' });

const enterpriseAnswer = jsonAnswer(okEnvelope(enterprise, 'EnterpriseAnswer'), 'The enterprise');
const notFound467 = enterpriseError('467: no such enterprise of the account');

const untagged: UntaggedRoute[] = [
  {
    method: 'post',
    path: '/',
    operationId: 'createEnterprise',
    summary: 'Create an enterprise',
    request: { body: enterpriseBody(createEnterpriseBody) },
    responses: { 200: enterpriseAnswer, 400: enterpriseBadInput },
  },
  {
    method: 'get',
    path: '/search',
    operationId: 'searchEnterprises',
    summary: "Search the account's enterprises",
    request: {
      query: searchQuery(['name', 'dateCreated']).extend({
        name: z.string().optional().describe('Any part of the name, any case'),
      }),
    },
    responses: {
      200: jsonAnswer(searchEnvelope(enterprise, 'EnterpriseSearch'), 'A page of enterprises'),
      400: enterpriseBadInput,
    },
  },
  {
    method: 'get',
    path: '/search/{sid}',
    operationId: 'getEnterprise',
    summary: 'Get an enterprise',
    request: { params: sidParam },
    responses: { 200: enterpriseAnswer, 409: notFound467 },
  },
  {
    method: 'put',
    path: '/{sid}',
    operationId: 'updateEnterprise',
    summary: 'Change an enterprise',
    request: { params: sidParam, body: enterpriseBody(updateEnterpriseBody) },
    responses: { 200: enterpriseAnswer, 400: enterpriseBadInput, 409: notFound467 },
  },
];
const routes = untagged.map(enterpriseRoute(['Enterprises']));

/** The `/enterprises` routes, mounted at `{base_url}/enterprises`. */
export const enterprisesOpenApi: AreaDeclaration = { mount: '/enterprises', routes };
