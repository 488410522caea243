/**
 * `GET {base_url}/openapi.json`: the OpenAPI 3.1 document of every declared route of the app,
 * built once, on first request, from the declarations its routes carry.
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { API_VERSION } from '../../engine/records.js';
import type { AreaDeclaration } from '../http/openapi-kit.js';
import { declareRoute } from './declare.js';
import { type AppRoute, type MountAlias, type OpenApiDocument, openApiDocument } from './document.js';

export { catalogueOperations, checkCatalogueAnswers } from './areas.js';
export { ErrorBody, PageEnvelope, pageOf, sidParam } from './components.js';
export {
  type BodyDeclaration,
  type CheckedOperation,
  type CheckedResponse,
  currentResponseCheck,
  declarationsOf,
  declaredQuery,
  declareRoute,
  type FormatSuffixes,
  formatOf,
  parseQuery,
  type ResponseCheck,
  type ResponseDeclaration,
  type RouteDeclaration,
  setResponseCheck,
} from './declare.js';
export {
  type AppRoute,
  type DocumentedOperation,
  documentedOperations,
  type MountAlias,
  type OpenApiDocument,
  openApiDocument,
} from './document.js';
export { type JsonSchema, SchemaComponents } from './json-schema.js';

/** The document's own version: that of the REST API it describes. */
const DOCUMENT_VERSION = '1.0.0';

/** Mounts serving the platform's routes a second time (see docs/api.md). */
export const PLATFORM_ALIASES: readonly MountAlias[] = [
  {
    prefix: `/${API_VERSION}`,
    serves: `/platform/${API_VERSION}`,
    description: 'The same routes and answers.',
  },
  {
    prefix: '/2010-04-01',
    serves: `/platform/${API_VERSION}`,
    description:
      "The same routes in Twilio's conventions: create answers 201, a missing paging link is JSON null, " +
      'links are under /2010-04-01, start and end are numbers, the XML root is <TwilioResponse>.',
  },
];

const TAGS: Readonly<Record<string, string>> = {
  Accounts: 'The authenticated account',
  Calls: 'Calls: list, place, read, modify live calls',
  Recordings: 'Recordings and their audio',
  Gathers: 'Gather DTMF and Speech records (JSON only)',
  Notifications: 'Errors and warnings of calls and of the engine',
  Applications: 'Applications (rename)',
  Conferences: 'Conference rooms and their participants',
  Clients: 'Clients: softphone users that register over SIP (extension)',
  Sim: 'Simulation control: inbound calls, parties, digits, speech, virtual time',
  Operations: 'Health, readiness and metrics (no authentication)',
  Meta: 'This document',
};

const DESCRIPTION =
  "The platform's REST API. Paths are relative to `{base_url}`; `{api_root}` is " +
  "`{base_url}/platform/2012-04-24`, also served at `{base_url}/2012-04-24` and, in Twilio's " +
  'dialect, at `{base_url}/2010-04-01` (`x-rcml-mounts`). Under `{api_root}` a `.json` suffix ' +
  'asks for JSON and `.xml` for XML; without a suffix the answer is XML (Gathers: JSON). ' +
  'Every route needs HTTP Basic authentication except where an operation says otherwise.';

/**
 * Adds `GET {basePath}/openapi.json` (no authentication: the document holds no secret) to `app`.
 * Call it once every other route is in place. `serverUrl` is `{base_url}` when known; otherwise
 * the origin of the request is used.
 */
export function mountOpenApi(
  app: Hono,
  basePath: string,
  serverUrl: () => string | undefined,
  areas: readonly AreaDeclaration[] = [],
): void {
  let built: OpenApiDocument | undefined;
  const build = () =>
    openApiDocument(app.routes as AppRoute[], {
      title: 'rcml-engine REST API',
      version: DOCUMENT_VERSION,
      description: DESCRIPTION,
      basePath,
      serverUrl: '/',
      aliases: PLATFORM_ALIASES,
      tags: TAGS,
      areas,
    });
  app.get(
    `${basePath}/openapi.json`,
    declareRoute({
      operationId: 'getOpenApiDocument',
      tag: 'Meta',
      summary: 'This OpenAPI 3.1 document',
      auth: 'none',
      responses: { 200: { description: 'The document', schema: z.record(z.string(), z.unknown()) } },
    }),
    (c) => {
      built ??= build();
      const url = serverUrl() ?? `${new URL(c.req.url).origin}${basePath}`;
      return c.json({ ...built, servers: [{ url }] });
    },
  );
}
