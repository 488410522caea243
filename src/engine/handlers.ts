import type { RcmlHandler } from './types.js';

/**
 * In-process handlers by URL. A key matches a URL (query ignored) when equal to it, or when the
 * key ends with `/` or `*` and the URL starts with the key (without the `*`). Longest key wins.
 */
export class HandlerRegistry {
  private readonly exact = new Map<string, RcmlHandler>();
  private prefixes: Array<{ prefix: string; handler: RcmlHandler }> = [];

  register(urlOrPrefix: string, handler: RcmlHandler): void {
    if (urlOrPrefix.endsWith('*') || urlOrPrefix.endsWith('/')) {
      const prefix = urlOrPrefix.endsWith('*') ? urlOrPrefix.slice(0, -1) : urlOrPrefix;
      this.prefixes = this.prefixes.filter((p) => p.prefix !== prefix);
      this.prefixes.push({ prefix, handler });
      this.prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
    }
    if (!urlOrPrefix.endsWith('*')) this.exact.set(urlOrPrefix, handler);
  }

  find(url: string): RcmlHandler | undefined {
    const q = url.indexOf('?');
    const bare = q < 0 ? url : url.slice(0, q);
    const hit = this.exact.get(bare);
    if (hit) return hit;
    for (const p of this.prefixes) if (bare.startsWith(p.prefix)) return p.handler;
    return undefined;
  }
}
