/** Schemas of the steps that run server-side while rendering: externalService and control. */
import { z } from 'zod';
import { bool, int, str } from './schema-fields.js';

const stepBase = {
  name: z.string().min(1),
  label: str,
  title: str,
};

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
  method: z
    .enum(['GET', 'POST', 'PUT', 'DELETE'])
    .nullish()
    .transform((v) => v ?? undefined),
  contentType: z
    .enum(['form', 'json'])
    .nullish()
    .transform((v) => v ?? undefined),
  requestBody: str,
  populatePostBodyFromParams: bool,
  username: str,
  password: str,
  urlParams: z
    .array(nameValueSchema)
    .nullish()
    .transform((v) => v ?? []),
  httpHeaders: z
    .array(nameValueSchema)
    .nullish()
    .transform((v) => v ?? []),
  timeout: int,
  assignments: z
    .array(
      z.object({
        destVariable: z.string(),
        scope: z.enum(['module', 'application']).default('module'),
        moduleNameScope: str,
        valueExtractor: valueExtractorSchema.nullish().transform((v) => v ?? undefined),
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
  doRouting: bool,
  nextType: z
    .enum(['fixed', 'responseBased', 'mapped'])
    .nullish()
    .transform((v) => v ?? undefined),
  next: str,
  nextValueExtractor: valueExtractorSchema.nullish().transform((v) => v ?? undefined),
  routeMappings: z
    .array(z.object({ value: z.string(), next: str }))
    .nullish()
    .transform((v) => v ?? []),
  exceptionNext: str,
  onTimeout: str,
});

const conditionSchema = z.object({
  name: z.string(),
  operator: z.enum(['equals', 'notequal', 'greater', 'greaterEqual', 'less', 'lessEqual', 'matches']),
  comparison: z
    .object({ operand1: str, operand2: str, type: z.enum(['text', 'numeric']).default('text') })
    .nullish()
    .transform((v) => v ?? undefined),
  matcher: z
    .object({ text: str, regex: str })
    .nullish()
    .transform((v) => v ?? undefined),
});
const varScope = z
  .enum(['mod', 'app'])
  .nullish()
  .transform((v) => v ?? undefined);
const controlActionSchema = z.object({
  name: z.string(),
  assign: z
    .object({ expression: str, varName: z.string(), varScope })
    .nullish()
    .transform((v) => v ?? undefined),
  continueTo: z
    .object({ target: str })
    .nullish()
    .transform((v) => v ?? undefined),
  capture: z
    .object({ regex: z.string(), data: str, varName: z.string(), varScope })
    .nullish()
    .transform((v) => v ?? undefined),
});

export const controlStepSchema = z.object({
  ...stepBase,
  kind: z.literal('control'),
  conditions: z
    .array(conditionSchema)
    .nullish()
    .transform((v) => v ?? []),
  conditionExpression: str,
  actions: z
    .array(controlActionSchema)
    .nullish()
    .transform((v) => v ?? []),
});
