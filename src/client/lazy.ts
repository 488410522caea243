/**
 * A record that is fetched only when awaited, beside methods that need no fetch of it
 * (`client.recordings.get(sid).wav()` downloads the audio without reading the record first).
 * Awaiting it again reuses the first fetch.
 */
export type Lazy<T, Methods extends object> = PromiseLike<T> & Methods;

export function lazy<T, Methods extends object>(load: () => Promise<T>, methods: Methods): Lazy<T, Methods> {
  let loaded: Promise<T> | undefined;
  return {
    ...methods,
    // biome-ignore lint/suspicious/noThenProperty: a lazy thenable is the point: `await` fetches the record.
    then(onFulfilled, onRejected) {
      loaded ??= load();
      return loaded.then(onFulfilled, onRejected);
    },
  };
}
