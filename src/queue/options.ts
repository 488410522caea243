import { z } from 'zod';
import { QueueError } from './errors.js';

/** Queue size limit when none is configured. */
export const DEFAULT_MAX_QUEUE_SIZE = 100;
/** Largest size limit a queue may be configured with. */
export const MAX_MAX_QUEUE_SIZE = 5000;

/** A queue size limit: an integer in 1..5000. */
export const maxQueueSizeSchema = z.number().int().min(1).max(MAX_MAX_QUEUE_SIZE);

/** A queue name: the text of an Enqueue verb or Queue noun, not blank. */
export const queueNameSchema = z.string().trim().min(1);

/** Validates a size limit, naming `where` (e.g. `options.defaultMaxSize`) in the error. */
export function parseMaxQueueSize(value: unknown, where: string): number {
  const parsed = maxQueueSizeSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new QueueError(
    'invalid-max-size',
    `${where}: queue size limit must be an integer from 1 to ${MAX_MAX_QUEUE_SIZE}, got ${JSON.stringify(value)}`,
  );
}

/** Validates a queue name (surrounding blanks are kept: names are matched exactly). */
export function parseQueueName(value: unknown, where: string): string {
  // Same rule as queueNameSchema, checked by hand: this runs on every arrival.
  if (typeof value === 'string' && value.trim() !== '') return value;
  throw new QueueError(
    'invalid-name',
    `${where}: queue name must be a non-blank string, got ${JSON.stringify(value)}`,
  );
}
