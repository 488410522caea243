/**
 * How an area declares its routes for the OpenAPI document: one plain object per route (method,
 * path with `{param}`s, operationId, request and response schemas in zod), and the envelopes
 * every area shares.
 */
import type { z } from 'zod';
import { ErrorBody } from '../openapi/components.js';

/** A media type and the schema of its body. */
export interface MediaDeclaration {
  schema: z.ZodType;
}

/** One answer of a route: a status's description, body and headers. */
export interface ResponseDeclaration {
  description: string;
  content?: Record<string, MediaDeclaration>;
  headers?: z.ZodObject;
}

/** One route of an area, relative to where the area is mounted under `{base_url}`. */
export interface RouteDeclaration {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI style: `/projects/{sid}`. */
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  /** `[]` for a route that needs no credentials; the document's default (Basic) otherwise. */
  security?: Array<Record<string, string[]>>;
  request?: {
    params?: z.ZodObject;
    query?: z.ZodObject;
    headers?: z.ZodObject;
    body?: { description?: string; required?: boolean; content: Record<string, MediaDeclaration> };
  };
  responses: Record<number, ResponseDeclaration>;
}

/** A route as an area writes it; the area adds its tags. */
export type UntaggedRoute = Omit<RouteDeclaration, 'tags'>;

/** The routes of one area and the path they are mounted at below `{base_url}`. */
export interface AreaDeclaration {
  mount: string;
  routes: RouteDeclaration[];
}

/** A JSON answer. */
export const jsonAnswer = (schema: z.ZodType, description: string): ResponseDeclaration => ({
  description,
  content: { 'application/json': { schema } },
});

/** A JSON request body. */
export const jsonBody = (schema: z.ZodType, description?: string) => ({
  description,
  required: true,
  content: { 'application/json': { schema } },
});

/**
 * The platform's error body (`{code, message, more_info, status, parameter?, kind}`), which the
 * Visual Designer and Call Queuing areas answer, and every area for authentication (401), the
 * request limit (429), body limits (413) and a store that cannot write (503).
 */
export const platformErrorBody = ErrorBody;

/** A platform error answer with the given description. */
export const platformError = (description: string) => jsonAnswer(platformErrorBody, description);

/** Answers of every authenticated route: wrong credentials, the account's request limit. */
export const authenticatedAnswers = {
  401: platformError('HTTP Basic credentials missing or wrong'),
  429: platformError("Over the account's request limit (when one is set); see Retry-After"),
};

/** Answers of every route that writes: the store cannot write for now. */
export const writeAnswers = {
  503: platformError('The store cannot write for now; see Retry-After'),
};
