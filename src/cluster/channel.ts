import type { Redis } from 'ioredis';

/**
 * Listens to one pub/sub channel on a connection of its own (a subscribed connection serves
 * nothing else): `hear` gets every message from the moment the subscription takes, which
 * `subscribed` tells. The caller disconnects `connection` when done. `connectionName` is what
 * `CLIENT LIST` shows for it.
 */
export function listenTo(
  redis: Redis,
  channel: string,
  hear: (message: string) => void,
  connectionName?: string,
): { connection: Redis; subscribed: Promise<unknown> } {
  const connection = redis.duplicate(connectionName === undefined ? undefined : { connectionName });
  // Connection errors are retried by ioredis; what a listener must do about a gap is its own.
  connection.on('error', () => undefined);
  connection.on('message', (from: string, message: string) => {
    if (from === channel) hear(message);
  });
  return { connection, subscribed: connection.subscribe(channel) };
}
