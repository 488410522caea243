/**
 * Once per test run: a scratch PostgreSQL database and a Redis key prefix of its own, so
 * parallel runs never collide. When a service does not answer, its tests are skipped and this
 * prints one line saying why (CI starts both services, so there they always run).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

const PG_BASE = process.env.RCML_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.RCML_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function scratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `rcml_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_BASE, connectionTimeoutMillis: 3000 });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_BASE);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_BASE });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

async function redisPrefix(): Promise<{ prefix: string; drop: () => Promise<void> }> {
  const prefix = `rcml_test_${process.pid}_${randomBytes(4).toString('hex')}:`;
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
  return {
    prefix,
    drop: async () => {
      const r = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      try {
        let cursor = '0';
        do {
          const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length > 0) await r.del(...keys);
        } while (cursor !== '0');
      } finally {
        r.disconnect();
      }
    },
  };
}

export default async function setup(project: TestProject) {
  const drops: Array<() => Promise<void>> = [];
  try {
    const db = await scratchDatabase();
    drops.push(db.drop);
    project.provide('pgUrl', db.url);
  } catch (err) {
    project.provide('pgUrl', '');
    console.warn(
      `PostgreSQL tests skipped: no server at ${PG_BASE} (${reason(err)}); set RCML_TEST_DATABASE_URL`,
    );
  }
  try {
    const r = await redisPrefix();
    drops.push(r.drop);
    project.provide('redisUrl', REDIS_URL);
    project.provide('redisPrefix', r.prefix);
  } catch (err) {
    project.provide('redisUrl', '');
    project.provide('redisPrefix', '');
    console.warn(`Redis tests skipped: no server at ${REDIS_URL} (${reason(err)}); set RCML_TEST_REDIS_URL`);
  }
  return async () => {
    for (const drop of drops) await drop().catch(() => undefined);
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Scratch database of this run, or '' when PostgreSQL is absent. */
    pgUrl: string;
    /** Redis of this run, or '' when absent. */
    redisUrl: string;
    /** Prefix of every Redis key this run may use. */
    redisPrefix: string;
  }
}
