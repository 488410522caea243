import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SpeechRequest } from './port.js';

/** Recently used results kept in memory as well, bytes. */
const MEMORY_BYTES = 16 * 1024 * 1024;

/** The cache key: a hash of (voice, language, text). */
export function speechKey(request: SpeechRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([request.voice, request.language, request.text]))
    .digest('hex');
}

/**
 * Synthesised speech by key: in memory (most recent first), on disk (`<key>.pcm`, raw 8 kHz
 * 16-bit little-endian), and in flight (one synthesis per key at a time). The disk holds at
 * most `maxBytes`; writing past it deletes the oldest files.
 */
export class SpeechCache {
  private readonly memory = new Map<string, Int16Array>();
  private memoryBytes = 0;
  private readonly pending = new Map<string, Promise<Int16Array>>();
  private diskBytes: number | undefined;
  private ready: Promise<void> | undefined;

  constructor(
    readonly dir: string = join(tmpdir(), 'rcml-tts'),
    readonly maxBytes: number = 64 * 1024 * 1024,
  ) {}

  get(request: SpeechRequest, make: () => Promise<Int16Array>): Promise<Int16Array> {
    const key = speechKey(request);
    const hit = this.memory.get(key);
    if (hit) {
      this.memory.delete(key);
      this.memory.set(key, hit);
      return Promise.resolve(hit);
    }
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const work = this.load(key, make).finally(() => this.pending.delete(key));
    this.pending.set(key, work);
    return work;
  }

  private async load(key: string, make: () => Promise<Int16Array>): Promise<Int16Array> {
    await this.prepare();
    const file = join(this.dir, `${key}.pcm`);
    let pcm: Int16Array;
    try {
      const bytes = await readFile(file);
      pcm = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1).slice();
    } catch {
      pcm = await make();
      await this.store(file, pcm);
    }
    this.remember(key, pcm);
    return pcm;
  }

  private remember(key: string, pcm: Int16Array): void {
    this.memory.set(key, pcm);
    this.memoryBytes += pcm.byteLength;
    for (const [k, v] of this.memory) {
      if (this.memoryBytes <= MEMORY_BYTES) break;
      this.memory.delete(k);
      this.memoryBytes -= v.byteLength;
    }
  }

  private prepare(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.dir, { recursive: true });
      let total = 0;
      for (const name of await readdir(this.dir)) {
        if (name.endsWith('.pcm'))
          total += (await stat(join(this.dir, name)).catch(() => ({ size: 0 }))).size;
      }
      this.diskBytes = total;
    })();
    return this.ready;
  }

  private async store(file: string, pcm: Int16Array): Promise<void> {
    if (pcm.byteLength > this.maxBytes) return;
    // Written under a temporary name and renamed: a reader never sees half a file.
    const temp = `${file}.${process.pid}.tmp`;
    try {
      await writeFile(temp, new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
      await rename(temp, file);
      this.diskBytes = (this.diskBytes ?? 0) + pcm.byteLength;
      if (this.diskBytes > this.maxBytes) await this.evict();
    } catch {
      // A cache that cannot be written is only slower.
      await unlink(temp).catch(() => {});
    }
  }

  /** Deletes the oldest files until the cache is back under three quarters of its size. */
  private async evict(): Promise<void> {
    const files = await Promise.all(
      (await readdir(this.dir))
        .filter((n) => n.endsWith('.pcm'))
        .map(async (n) => {
          const s = await stat(join(this.dir, n)).catch(() => undefined);
          return { path: join(this.dir, n), size: s?.size ?? 0, at: s?.mtimeMs ?? 0 };
        }),
    );
    files.sort((a, b) => a.at - b.at);
    let total = files.reduce((sum, f) => sum + f.size, 0);
    for (const f of files) {
      if (total <= this.maxBytes * 0.75) break;
      await unlink(f.path).catch(() => {});
      total -= f.size;
    }
    this.diskBytes = total;
  }
}
