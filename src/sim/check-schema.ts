import { z } from 'zod';

/**
 * The `check` section of a scenario file: how `rcml check` varies the scenario and which
 * properties every run must hold. `rcml simulate` ignores it. See docs/testing.md.
 */
const seconds = z.number().finite().nonnegative();
const keys = z.string().regex(/^[0-9*#]+$/, 'keys: 0-9, * or #');

/** Key presses: how many, from which keys, within how many seconds of the answer. */
export const keyPressSpecSchema = z
  .object({
    alphabet: keys.default('0123456789*#'),
    maxPresses: z.number().int().min(0).max(50).default(4),
    within: seconds.default(30),
    /** When set, some presses end with this key (a Gather's `finishOnKey`). */
    finishOnKey: z
      .string()
      .regex(/^[0-9*#]$/, 'one key: 0-9, * or #')
      .optional(),
  })
  .strict();

/** Phrases a caller may say (speech Gathers), at most `max` of them within `within` seconds. */
export const speechSpecSchema = z
  .object({
    phrases: z.array(z.string().min(1)).min(1),
    max: z.number().int().min(0).max(20).default(2),
    within: seconds.default(30),
  })
  .strict();

/** A party's varied behaviour; every part left out stays as the scenario has it. */
export const partySpecSchema = z
  .object({
    keys: keyPressSpecSchema.optional(),
    speech: speechSpecSchema.optional(),
    /** The party may hang up at any time up to `within` seconds after the answer (or never). */
    hangup: z.object({ within: seconds }).strict().optional(),
    /** Outcomes to choose from when the party is called (default: answer only). */
    outcomes: z
      .array(z.enum(['answer', 'busy', 'no-answer', 'fail']))
      .min(1)
      .optional(),
    /** Ringing time, up to `max` seconds. */
    answerAfter: z.object({ max: seconds }).strict().optional(),
  })
  .strict();

/** A Poisson stream of inbound calls to `to`: each caller gets its own address and behaviour. */
export const arrivalsSpecSchema = z
  .object({
    to: z.string().min(1),
    /** Caller addresses are this prefix plus a number (default `+1555000`). */
    from: z.string().min(1).default('+1555000'),
    /** Mean arrivals per second. */
    rate: z.number().finite().positive(),
    /** Arrivals happen within this many seconds of the start. */
    within: seconds.refine((v) => v > 0, 'must be more than 0'),
    /** At most this many calls. */
    max: z.number().int().min(1).max(1000).default(10),
    party: partySpecSchema.optional(),
  })
  .strict();

export const varySpecSchema = z
  .object({
    parties: z.record(z.string(), partySpecSchema).default({}),
    defaultParty: partySpecSchema.optional(),
    arrivals: z.array(arrivalsSpecSchema).default([]),
  })
  .strict();

/** The ready-made properties, by name, with their settings. */
export const propertiesSpecSchema = z
  .object({
    everyCallEnds: z.boolean().optional(),
    maxCallDuration: seconds.optional(),
    reachesOneOf: z.array(z.string().min(1)).min(1).optional(),
    queueFifo: z.boolean().optional(),
    noSelfBridge: z.boolean().optional(),
    actionResults: z.boolean().optional(),
    noErrorNotifications: z.boolean().optional(),
  })
  .strict()
  .refine((p) => Object.values(p).some((v) => v !== undefined && v !== false), {
    message: 'name at least one property',
  });

export const checkSpecSchema = z
  .object({
    runs: z.number().int().min(1).max(100_000).default(100),
    seed: z.number().int().optional(),
    vary: varySpecSchema.default({ parties: {}, arrivals: [] }),
    properties: propertiesSpecSchema,
  })
  .strict();

export type KeyPressSpec = z.input<typeof keyPressSpecSchema>;
export type SpeechSpec = z.input<typeof speechSpecSchema>;
export type PartySpec = z.input<typeof partySpecSchema>;
export type ArrivalsSpec = z.input<typeof arrivalsSpecSchema>;
export type VarySpec = z.input<typeof varySpecSchema>;
export type PropertiesSpec = z.input<typeof propertiesSpecSchema>;
/** A validated `check` section. */
export type CheckSpec = z.infer<typeof checkSpecSchema>;
