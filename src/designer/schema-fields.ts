/** Field schemas shared by the step schemas (the editor writes `null` for unset fields). */
import { z } from 'zod';

/** `schema`, or undefined for `null`/missing. */
export const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/** A list of `schema`, empty for `null`/missing. */
export const list = <T extends z.ZodType>(schema: T) =>
  z
    .array(schema)
    .nullish()
    .transform((v) => v ?? []);

/** Optional string: `null`/missing -> undefined. */
export const str = optional(z.string());
/** Optional integer, also accepted as a numeric string (older editors wrote strings). */
export const int = optional(
  z.union([
    z.number().int(),
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, 'expected an integer')
      .transform(Number),
    z.literal('').transform(() => undefined),
  ]),
);
export const bool = optional(
  z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]),
);
export const method = optional(z.enum(['GET', 'POST']).or(z.literal('').transform(() => undefined)));

/** Fields every step has. */
export const stepBase = {
  name: z.string().min(1),
  label: str,
  title: str,
};

/** Fields of a step nested as a message: the editor saves it without a `name`. */
export const messageBase = {
  name: str,
  label: str,
  title: str,
};
