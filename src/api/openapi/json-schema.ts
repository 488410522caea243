/**
 * zod schemas as the JSON Schema (draft 2020-12) of an OpenAPI 3.1 document: named schemas
 * (`.meta({ id })`) are collected as components and referenced, never repeated.
 */
import { z } from 'zod';

/** A JSON Schema object. */
export type JsonSchema = { [key: string]: unknown };

const DEFS = '#/$defs/';
const COMPONENTS = '#/components/schemas/';

/** Rewrites `$defs` references into component references, and drops `additionalProperties: {}`. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (typeof value !== 'object' || value === null) return value;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith(DEFS)) {
      out[k] = COMPONENTS + v.slice(DEFS.length);
    } else if (k === 'additionalProperties' && isEmptyObject(v)) {
      // Same meaning as absent, but it would mark every property evaluated, defeating the
      // `unevaluatedProperties: false` of a list (an envelope joined with its items).
    } else {
      out[k] = relink(v);
    }
  }
  return out;
}

const isEmptyObject = (v: unknown) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

/** Collects the named schemas of a document as its schemas are converted. */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly text = new Map<string, string>();

  /**
   * The JSON Schema of `schema`: `output` for answers, `input` for requests (what the client
   * sends, before defaults and transforms). Named schemas land in {@link schemas}; two different
   * schemas with one name are refused.
   */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const converted = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
    }) as JsonSchema;
    const { $schema: _, $defs, ...rest } = converted;
    for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
      this.add(name, relink(def) as JsonSchema);
    }
    return relink(rest) as JsonSchema;
  }

  private add(name: string, schema: JsonSchema): void {
    const text = JSON.stringify(schema);
    const known = this.text.get(name);
    if (known === undefined) {
      this.text.set(name, text);
      this.schemas[name] = schema;
    } else if (known !== text) {
      throw new Error(`two different schemas are named ${name}: give one another id`);
    }
  }
}
