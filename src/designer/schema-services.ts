/** Schemas of the steps that run server-side while rendering: externalService and control. */
import { z } from 'zod';
import { bool, int, list, optional, stepBase, str } from './schema-fields.js';

const accessOperationSchema = z.object({
  kind: z.enum(['object', 'array', 'value']),
  action: str,
  property: str,
  position: int,
});
export const valueExtractorSchema = z.object({
  accessOperations: z.array(accessOperationSchema).default([]),
});
const nameValueSchema = z.object({ name: z.string(), value: str });

export const externalServiceStepSchema = z.object({
  ...stepBase,
  kind: z.literal('externalService'),
  url: z.string({ error: 'required' }).min(1, 'required'),
  method: optional(z.enum(['GET', 'POST', 'PUT', 'DELETE'])),
  // The editor saves `application/x-www-form-urlencoded` or `application/json`; any other
  // value is sent as the Content-Type header as written.
  contentType: str,
  requestBody: str,
  populatePostBodyFromParams: bool,
  username: str,
  password: str,
  urlParams: list(nameValueSchema),
  httpHeaders: list(nameValueSchema),
  timeout: int,
  assignments: list(
    z.object({
      destVariable: z.string(),
      scope: optional(z.enum(['module', 'application'])),
      moduleNameScope: str,
      valueExtractor: optional(valueExtractorSchema),
    }),
  ),
  doRouting: bool,
  nextType: optional(z.enum(['fixed', 'responseBased', 'mapped'])),
  next: str,
  nextValueExtractor: optional(valueExtractorSchema),
  routeMappings: list(z.object({ value: z.string(), next: str })),
  exceptionNext: str,
  onTimeout: str,
});

const conditionSchema = z.object({
  name: z.string(),
  operator: z.enum(['equals', 'notequal', 'greater', 'greaterEqual', 'less', 'lessEqual', 'matches']),
  comparison: optional(
    z.object({ operand1: str, operand2: str, type: z.enum(['text', 'numeric']).default('text') }),
  ),
  matcher: optional(z.object({ text: str, regex: str })),
});
const varScope = optional(z.enum(['mod', 'app']));
const controlActionSchema = z.object({
  name: z.string(),
  assign: optional(z.object({ expression: str, varName: z.string(), varScope })),
  continueTo: optional(z.object({ target: str })),
  capture: optional(z.object({ regex: z.string(), data: str, varName: z.string(), varScope })),
});

export const controlStepSchema = z.object({
  ...stepBase,
  kind: z.literal('control'),
  conditions: list(conditionSchema),
  conditionExpression: str,
  actions: list(controlActionSchema),
});
