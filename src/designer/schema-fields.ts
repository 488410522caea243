/** Field schemas shared by the step schemas (the editor writes `null` for unset fields). */
import { z } from 'zod';

/** Optional string: `null`/missing -> undefined. */
export const str = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);
/** Optional integer, also accepted as a numeric string (older editors wrote strings). */
export const int = z
  .union([
    z.number().int(),
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, 'expected an integer')
      .transform(Number),
    z.literal('').transform(() => undefined),
  ])
  .nullish()
  .transform((v) => v ?? undefined);
export const bool = z
  .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
  .nullish()
  .transform((v) => v ?? undefined);
export const method = z
  .enum(['GET', 'POST'])
  .or(z.literal('').transform(() => undefined))
  .nullish()
  .transform((v) => v ?? undefined);
