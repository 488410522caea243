import { z } from 'zod';

const method = z.enum(['GET', 'POST']);
const absoluteUrl = z.string().refine((v) => URL.canParse(v), { message: 'must be an absolute URL' });
const bool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/**
 * The platform's live-modification parameters (POST Calls/{CallSid}), for boundaries: `Url`,
 * `Method`, `FallbackUrl`, `FallbackMethod`, `Status` (completed | canceled), `StatusCallback`,
 * `StatusCallbackMethod`, `Mute`, `MoveConnectedCallLeg`, `ChildCallMode`. Booleans may come as
 * the strings `true`/`false`. At least one of Url, Status, Mute, StatusCallback is required.
 */
export const modifyCallParamsSchema = z
  .object({
    Url: absoluteUrl.optional(),
    Method: method.optional(),
    FallbackUrl: absoluteUrl.optional(),
    FallbackMethod: method.optional(),
    Status: z.enum(['completed', 'canceled']).optional(),
    StatusCallback: absoluteUrl.optional(),
    StatusCallbackMethod: method.optional(),
    Mute: bool.optional(),
    MoveConnectedCallLeg: bool.optional(),
    ChildCallMode: z.enum(['Hangup', 'Move', 'StayConnected']).optional(),
  })
  .strict()
  .refine(
    (p) =>
      p.Url !== undefined || p.Status !== undefined || p.Mute !== undefined || p.StatusCallback !== undefined,
    { message: 'one of Url, Status, Mute or StatusCallback is required' },
  );

/** Parameters of a live call modification, as given (booleans may be strings). */
export type ModifyCallInput = z.input<typeof modifyCallParamsSchema>;
/** Validated parameters of a live call modification. */
export type ModifyCallParams = z.output<typeof modifyCallParamsSchema>;
