/**
 * Stopping with the process that started the server. `npx rcml serve` runs the server under
 * a shell under npm: npm passes SIGTERM to that shell, which exits without passing it on, and
 * the server lives on, re-parented. Polling the parent's pid (Node has no parent-death signal)
 * notices within a second.
 */
export function whenOrphaned(
  onOrphaned: () => void,
  options: { intervalMs?: number; parentPid?: () => number; parent?: number } = {},
): () => void {
  const parentPid = options.parentPid ?? (() => process.ppid);
  // The parent at start-up: it may already be gone by the time the server listens.
  const parent = options.parent ?? parentPid();
  const timer = setInterval(() => {
    if (parentPid() === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, options.intervalMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}
