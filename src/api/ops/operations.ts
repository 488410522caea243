/** The operations of the operating routes (no authentication; see docs/operations.md). */
import { z } from 'zod';
import type { RouteDeclaration } from '../openapi/declare.js';

const Check = z.object({
  ok: z.boolean(),
  ms: z.number().describe('How long the check took'),
  error: z.string().optional().describe('Why it failed (URLs redacted)'),
});

const Readiness = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    failing: z.array(z.string()).optional().describe('Names of the failing checks'),
    checks: z.record(z.string(), Check),
  })
  .meta({ id: 'Readiness', description: 'The checks of readiness' });

export const getHealth: RouteDeclaration = {
  operationId: 'getHealth',
  tag: 'Operations',
  summary: 'The process answers',
  auth: 'none',
  responses: {
    200: {
      description: 'Alive',
      schema: z.object({ status: z.literal('ok') }).meta({ id: 'Health', description: 'Liveness' }),
    },
  },
};

export const getReadiness: RouteDeclaration = {
  operationId: 'getReadiness',
  tag: 'Operations',
  summary: 'Every readiness check passes',
  auth: 'none',
  responses: {
    200: { description: 'Ready', schema: Readiness },
    503: { description: 'Not ready: the failing checks are named', schema: Readiness },
  },
};

export const getMetrics: RouteDeclaration = {
  operationId: 'getMetrics',
  tag: 'Operations',
  summary: 'Prometheus metrics (when the server has them)',
  auth: 'none',
  responses: { 200: { description: 'Prometheus text format', contentType: 'text/plain' } },
};
