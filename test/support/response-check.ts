/**
 * Checks every JSON answer of a declared route against the schema its declaration gives for
 * the status (error statuses without one: the `Error` component), with ajv over the JSON Schema
 * the OpenAPI document publishes. test/setup.ts turns it on for the whole suite: a test whose
 * app answers something its declaration does not describe fails.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { z } from 'zod';
import { type CheckedResponse, ErrorBody, SchemaComponents } from '../../src/api/openapi/index.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
// The document's `date-time`, `uri`... formats are checked, not ignored with a warning each.
addFormats.default(ajv);
const compiled = new WeakMap<z.ZodType, ValidateFunction>();

function validatorOf(schema: z.ZodType): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    const components = new SchemaComponents();
    const root = components.convert(schema, 'output');
    validate = ajv.compile({ ...root, components: { schemas: components.schemas } });
    compiled.set(schema, validate);
  }
  return validate;
}

/** Mismatches seen since the last {@link takeMismatches}. */
const mismatches: string[] = [];

/** The check to pass to `setResponseCheck`. */
export async function checkResponse(checked: CheckedResponse): Promise<void> {
  const { declaration: d, response } = checked;
  const where = `${checked.method} ${checked.path} (${d.operationId}) answered ${response.status}`;
  const declared = d.responses[response.status];
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.startsWith('application/json')) {
    if (declared?.schema && checked.format === 'json') mismatches.push(`${where} as ${type}, declared JSON`);
    return;
  }
  if (declared?.contentType) {
    mismatches.push(`${where} JSON, declared ${declared.contentType}`);
    return;
  }
  if (!declared && d.strictStatuses && response.status < 400) {
    mismatches.push(`${where}: status not declared`);
    return;
  }
  const schema = declared?.schema ?? (response.status >= 400 ? ErrorBody : undefined);
  if (!schema) {
    mismatches.push(`${where}: a JSON answer with no schema declared for ${response.status}`);
    return;
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (err) {
    mismatches.push(`${where}: not JSON (${(err as Error).message})`);
    return;
  }
  const validate = validatorOf(schema);
  if (!validate(body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    mismatches.push(
      `${where} does not conform:\n    ${errors.join('\n    ')}\n    body: ${JSON.stringify(body).slice(0, 400)}`,
    );
  }
}

/** The mismatches seen so far, forgotten. */
export function takeMismatches(): string[] {
  return mismatches.splice(0, mismatches.length);
}
