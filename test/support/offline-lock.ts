import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  optional?: boolean;
  peer?: boolean;
  [key: string]: unknown;
}

interface Lock {
  packages: Record<string, LockEntry>;
}

/** Where node would find `name` when required from the package at `from` (a lock path). */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

/**
 * A package-lock for a scratch project that depends on a packed tarball of this package (and on
 * `extra` packages of this repository's lock): the entries are copied from the repository's own
 * lock, so `npm ci --offline` installs them from the npm cache that `npm ci` filled, with no
 * registry request (npm caches tarballs, not the metadata a lock-less install would ask for).
 */
export function scratchLock(root: string, tarball: string, extra: readonly string[]): string {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lock;
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    dependencies: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    engines?: Record<string, string>;
    bin?: Record<string, string>;
  };
  const packages: Record<string, LockEntry> = {};
  const pending: Array<[string, string]> = [
    ...Object.keys(manifest.dependencies).map((name): [string, string] => ['', name]),
    ...extra.map((name): [string, string] => ['', name]),
  ];
  while (pending.length > 0) {
    const [from, name] = pending.pop() as [string, string];
    const path = locate(lock.packages, from, name);
    if (!path) throw new Error(`${name} (needed by ${from || 'the package'}) is not in package-lock.json`);
    if (packages[path]) continue;
    const { dev: _dev, peer: _peer, devOptional: _devOptional, ...entry } = lock.packages[path] as LockEntry;
    packages[path] = entry;
    for (const dep of Object.keys(entry.dependencies ?? {})) pending.push([path, dep]);
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
      if (locate(lock.packages, path, dep)) pending.push([path, dep]);
    }
  }
  const extras = Object.fromEntries(
    extra.map((name) => [name, lock.packages[`node_modules/${name}`]?.version ?? '*']),
  );
  const scratch = {
    name: 'scratch',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': {
        name: 'scratch',
        version: '1.0.0',
        dependencies: { [manifest.name]: `file:${tarball}`, ...extras },
      },
      [`node_modules/${manifest.name}`]: {
        version: manifest.version,
        resolved: `file:${tarball}`,
        license: 'MIT',
        dependencies: manifest.dependencies,
        ...(manifest.bin ? { bin: manifest.bin } : {}),
        ...(manifest.engines ? { engines: manifest.engines } : {}),
        ...(manifest.peerDependencies ? { peerDependencies: manifest.peerDependencies } : {}),
        ...(manifest.peerDependenciesMeta ? { peerDependenciesMeta: manifest.peerDependenciesMeta } : {}),
      },
      ...packages,
    },
  };
  return `${JSON.stringify(scratch, null, 2)}\n`;
}
