/**
 * The OpenAPI 3.1 document of an app, built from the declarations its routes carry
 * (see `declare.ts`): one operation per declared route and suffix variant.
 */
import type { AreaDeclaration } from '../http/openapi-kit.js';
import { catalogueOperation, catalogueOperations } from './areas.js';
import { ErrorBody } from './components.js';
import { declarationsOf, type RouteDeclaration } from './declare.js';
import { type JsonSchema, SchemaComponents } from './json-schema.js';

/** A route as hono lists it (`app.routes`). */
export interface AppRoute {
  method: string;
  path: string;
  handler: unknown;
}

/** A mount prefix serving the routes of another one (not repeated in `paths`). */
export interface MountAlias {
  /** Where the routes also answer, relative to `{base_url}` (`/2010-04-01`). */
  prefix: string;
  /** The documented prefix whose routes it serves (`/platform/2012-04-24`). */
  serves: string;
  description: string;
}

/** Options of {@link openApiDocument}. */
export interface DocumentOptions {
  title: string;
  version: string;
  description: string;
  /** The path of `{base_url}`, left out of the documented paths (they are relative to the server). */
  basePath: string;
  /** The server's URL (`{base_url}`). */
  serverUrl: string;
  aliases?: readonly MountAlias[];
  /** Descriptions of the tags. */
  tags?: Readonly<Record<string, string>>;
  /** Areas declared as a catalogue instead of on their routes. */
  areas?: readonly AreaDeclaration[];
}

/** An OpenAPI 3.1 document. */
export type OpenApiDocument = {
  openapi: '3.1.0';
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
} & JsonSchema;

/** One documented operation: the path it is at, the variant of its declaration. */
export interface DocumentedOperation {
  path: string;
  method: string;
  operationId: string;
  format: 'json' | 'xml' | undefined;
  declaration: RouteDeclaration;
  /** The hono route it was found on. */
  route: AppRoute;
}

const honoToTemplate = (path: string) => path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, '{$1}');

/** The mount prefix of a declared route: its hono path less the segments its template covers. */
function prefixOf(honoPath: string, template: string): string {
  const declared = template.split('/').length - 1;
  const segments = honoPath.split('/');
  return segments.slice(0, segments.length - declared).join('/');
}

/** The variants a declaration documents at `base`: one per suffix, or the path alone. */
function variantsOf(
  base: string,
  d: RouteDeclaration,
): Array<{ path: string; operationId: string; format: 'json' | 'xml' | undefined; refused?: boolean }> {
  if (!d.formats) return [{ path: base, operationId: d.operationId, format: undefined }];
  return [
    { path: `${base}.json`, operationId: d.operationId, format: 'json' },
    {
      path: `${base}.xml`,
      operationId: `${d.operationId}Xml`,
      format: 'xml',
      refused: d.formats.xml === false,
    },
    {
      path: base,
      operationId: `${d.operationId}${d.formats.bare === 'xml' ? 'XmlDefault' : 'JsonDefault'}`,
      format: d.formats.bare,
    },
  ];
}

/** Every operation the routes document, found from their declarations. */
export function documentedOperations(
  routes: readonly AppRoute[],
  basePath: string,
  aliases: readonly MountAlias[] = [],
): DocumentedOperation[] {
  const out: DocumentedOperation[] = [];
  const seen = new Map<string, RouteDeclaration>();
  for (const route of routes) {
    if (route.method === 'ALL') continue;
    const path = basePath && route.path.startsWith(basePath) ? route.path.slice(basePath.length) : route.path;
    for (const d of declarationsOf(route.handler)) {
      const template = d.path ?? honoToTemplate(path);
      const prefix = d.path ? prefixOf(path, d.path) : '';
      if (aliases.some((a) => prefix === a.prefix || prefix.startsWith(`${a.prefix}/`))) continue;
      for (const v of variantsOf(prefix + template, d)) {
        const method = route.method.toLowerCase();
        const key = `${method} ${v.path}`;
        const known = seen.get(key);
        if (known === d) continue;
        if (known) throw new Error(`${key} is declared twice (${known.operationId}, ${d.operationId})`);
        seen.set(key, d);
        out.push({
          path: v.path,
          method,
          operationId: v.operationId,
          format: v.format,
          declaration: d,
          route,
        });
      }
    }
  }
  const ids = new Map<string, string>();
  for (const op of out) {
    const other = ids.get(op.operationId);
    if (other) throw new Error(`operationId ${op.operationId} is used twice (${other}, ${op.path})`);
    ids.set(op.operationId, op.path);
  }
  return out;
}

const XML_TEXT: JsonSchema = {
  type: 'string',
  description: 'XML: `<RestcommResponse>` holding the record or list element (see docs/api.md)',
};

function parametersOf(op: DocumentedOperation, components: SchemaComponents): JsonSchema[] {
  const d = op.declaration;
  const params: JsonSchema[] = [];
  for (const [, name] of op.path.matchAll(/\{([^}]+)\}/g)) {
    const declared = d.params?.[name];
    const schema = declared ? components.convert(declared, 'input') : { type: 'string' };
    const { description, ...rest } = schema;
    params.push({ name, in: 'path', required: true, schema: rest, ...(description ? { description } : {}) });
  }
  if (d.query) {
    const object = components.convert(d.query, 'input');
    const required = new Set((object.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries((object.properties ?? {}) as Record<string, JsonSchema>)) {
      const { description, ...schema } = prop;
      params.push({
        name,
        in: 'query',
        required: required.has(name),
        schema,
        ...(description ? { description } : {}),
      });
    }
  }
  return params;
}

function requestBodyOf(d: RouteDeclaration, components: SchemaComponents): JsonSchema | undefined {
  const body = d.body;
  if (!body) return undefined;
  const content: JsonSchema = {};
  if (body.form) {
    const schema = components.convert(body.form, 'input');
    content['application/x-www-form-urlencoded'] = { schema };
    content['application/json'] = { schema };
  }
  if (body.json) content['application/json'] = { schema: components.convert(body.json, 'input') };
  for (const type of body.raw ?? []) content[type] = { schema: { type: 'string', contentMediaType: type } };
  return { required: true, content, ...(body.description ? { description: body.description } : {}) };
}

function responsesOf(op: DocumentedOperation, components: SchemaComponents): JsonSchema {
  const xml = op.format === 'xml';
  const errorContent = xml
    ? {
        'application/xml': { schema: { type: 'string', description: '`<RestcommResponse><RestException>`' } },
      }
    : { 'application/json': { schema: components.convert(ErrorBody, 'output') } };
  const out: JsonSchema = {};
  if (op.format === 'xml' && op.declaration.formats?.xml === false) {
    out[406] = { description: 'This resource is JSON only', content: errorContent };
    return out;
  }
  for (const [status, r] of Object.entries(op.declaration.responses)) {
    let content: JsonSchema | undefined;
    if (r.contentType)
      content = { [r.contentType]: { schema: { type: 'string', contentMediaType: r.contentType } } };
    else if (r.schema) {
      content = xml
        ? { 'application/xml': { schema: XML_TEXT } }
        : { 'application/json': { schema: components.convert(r.schema, 'output') } };
    }
    out[status] = { description: r.description, ...(content ? { content } : {}) };
  }
  out.default = { description: 'An error', content: errorContent };
  return out;
}

/** The OpenAPI 3.1 document of the declared routes. */
export function openApiDocument(routes: readonly AppRoute[], options: DocumentOptions): OpenApiDocument {
  const components = new SchemaComponents();
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const op of documentedOperations(routes, options.basePath, options.aliases)) {
    const d = op.declaration;
    tags.add(d.tag);
    const parameters = parametersOf(op, components);
    const requestBody =
      op.format === 'xml' && d.formats?.xml === false ? undefined : requestBodyOf(d, components);
    const operation: JsonSchema = {
      operationId: op.operationId,
      tags: [d.tag],
      summary: op.format === 'xml' && op.operationId !== d.operationId ? `${d.summary} (XML)` : d.summary,
      ...(d.description ? { description: d.description } : {}),
      ...(d.deprecated ? { deprecated: true } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: responsesOf(op, components),
      ...(d.auth === 'none' ? { security: [] } : {}),
    };
    paths[op.path] ??= {};
    paths[op.path][op.method] = operation;
  }
  const ids = new Set(Object.values(paths).flatMap((item) => Object.values(item).map((o) => o.operationId)));
  for (const op of catalogueOperations(options.areas ?? [])) {
    const { method, operationId } = op.route;
    if (paths[op.path]?.[method]) throw new Error(`${method} ${op.path} is declared twice`);
    if (ids.has(operationId)) throw new Error(`operationId ${operationId} is used twice`);
    ids.add(operationId);
    for (const tag of op.route.tags) tags.add(tag);
    paths[op.path] ??= {};
    paths[op.path][method] = catalogueOperation(op, components);
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, description: options.description },
    servers: [{ url: options.serverUrl }],
    security: [{ basicAuth: [] }],
    tags: [...tags].map((name) => ({
      name,
      ...(options.tags?.[name] ? { description: options.tags[name] } : {}),
    })),
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        basicAuth: {
          type: 'http',
          scheme: 'basic',
          description: 'The account sid as user name, its auth token as password',
        },
      },
    },
    ...(options.aliases?.length ? { 'x-rcml-mounts': options.aliases } : {}),
  };
}
