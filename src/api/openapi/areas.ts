/**
 * Areas declared as a catalogue (`AreaDeclaration` of `src/api/http/openapi-kit.ts`: one object
 * per route, with its method and path under the area's mount) rather than with `declareRoute`
 * on each route: their operations in the document, and their answers under the response check.
 */
import type { MiddlewareHandler } from 'hono';
import type {
  AreaDeclaration,
  ResponseDeclaration as CatalogueResponse,
  RouteDeclaration as CatalogueRoute,
} from '../http/openapi-kit.js';
import { currentResponseCheck, type ResponseDeclaration } from './declare.js';
import type { JsonSchema, SchemaComponents } from './json-schema.js';

/** A catalogue route with its path below `{base_url}`. */
export interface CatalogueOperation {
  path: string;
  route: CatalogueRoute;
}

export const fullPathOf = (mount: string, path: string) => (path === '/' ? mount : `${mount}${path}`);

/** Every route of the areas, with its full path. */
export function catalogueOperations(areas: readonly AreaDeclaration[]): CatalogueOperation[] {
  return areas.flatMap((area) =>
    area.routes.map((route) => ({ path: fullPathOf(area.mount, route.path), route })),
  );
}

function contentOf(
  content: CatalogueResponse['content'],
  components: SchemaComponents,
  io: 'input' | 'output',
) {
  const out: JsonSchema = {};
  for (const [type, media] of Object.entries(content ?? {})) {
    out[type] = { schema: components.convert(media.schema, io) };
  }
  return out;
}

function parametersOf(where: 'path' | 'query' | 'header', object: JsonSchema): JsonSchema[] {
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries((object.properties ?? {}) as Record<string, JsonSchema>).map(([name, prop]) => {
    const { description, ...schema } = prop;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      schema,
      ...(description ? { description } : {}),
    };
  });
}

/** The OpenAPI operation object of a catalogue route. */
export function catalogueOperation(op: CatalogueOperation, components: SchemaComponents): JsonSchema {
  const { route } = op;
  const request = route.request ?? {};
  const parameters: JsonSchema[] = [];
  const declared = new Set<string>();
  if (request.params) {
    for (const p of parametersOf('path', components.convert(request.params, 'input'))) {
      declared.add(String(p.name));
      parameters.push(p);
    }
  }
  // A path parameter the catalogue left out is still a parameter of the path.
  for (const [, name] of op.path.matchAll(/\{([^}]+)\}/g)) {
    if (!declared.has(name))
      parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  if (request.query) parameters.push(...parametersOf('query', components.convert(request.query, 'input')));
  if (request.headers)
    parameters.push(...parametersOf('header', components.convert(request.headers, 'input')));
  const responses: JsonSchema = {};
  for (const [status, answer] of Object.entries(route.responses)) {
    const headers = answer.headers
      ? Object.fromEntries(
          parametersOf('header', components.convert(answer.headers, 'output')).map(
            ({ name, in: _, ...rest }) => [name, rest],
          ),
        )
      : undefined;
    responses[status] = {
      description: answer.description,
      ...(answer.content ? { content: contentOf(answer.content, components, 'output') } : {}),
      ...(headers ? { headers } : {}),
    };
  }
  const body = request.body;
  return {
    operationId: route.operationId,
    tags: route.tags,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: body.required ?? true,
            content: contentOf(body.content, components, 'input'),
            ...(body.description ? { description: body.description } : {}),
          },
        }
      : {}),
    responses,
    ...(route.security ? { security: route.security } : {}),
  };
}

/** A catalogue answer as the response check reads it: the JSON schema, or the media type. */
function checkedAnswer(answer: CatalogueResponse): ResponseDeclaration {
  const content = answer.content ?? {};
  const json = content['application/json'];
  if (json) return { description: answer.description, schema: json.schema };
  const [type] = Object.keys(content);
  return { description: answer.description, ...(type ? { contentType: type } : {}) };
}

/**
 * Runs the response check (when one is set) on the answers of the areas' routes. Mount it
 * before the areas' routes.
 */
export function checkCatalogueAnswers(
  basePath: string,
  areas: readonly AreaDeclaration[],
): MiddlewareHandler {
  let located: Array<{ method: string; pattern: RegExp; params: number; route: CatalogueRoute }> | undefined;
  const locate = (method: string, path: string) => {
    located ??= catalogueOperations(areas)
      .map(({ path: full, route }) => ({
        method: route.method.toUpperCase(),
        pattern: new RegExp(
          `^${basePath}${full.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
        ),
        params: (full.match(/\{/g) ?? []).length,
        route,
      }))
      .sort((a, b) => a.params - b.params);
    return located.find((l) => l.method === method && l.pattern.test(path))?.route;
  };
  return async (c, next) => {
    const check = currentResponseCheck();
    const route = check ? locate(c.req.method, c.req.path) : undefined;
    await next();
    if (!check || !route) return;
    const responses = Object.fromEntries(
      Object.entries(route.responses).map(([status, answer]) => [status, checkedAnswer(answer)]),
    );
    await check({
      declaration: { operationId: route.operationId, responses, strictStatuses: true },
      format: 'json',
      method: c.req.method,
      path: c.req.path,
      response: c.res.clone(),
    });
  };
}
