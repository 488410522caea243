import { InvalidArgumentError, type Option } from 'commander';
import type { AccountLimits } from '../../api/engine-server.js';
import { envOption } from '../env-option.js';

/** Defaults of the per-account limits of `rcml serve` (documented in docs/security.md). */
export const SERVE_LIMIT_DEFAULTS = { apiRate: 100, maxLiveCalls: 100 } as const;

/** The limit flags of `rcml serve`, as commander hands them over. */
export interface ServeLimitOptions {
  apiRate: number;
  apiBurst?: number;
  maxLiveCalls: number;
}

function count(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('expected a whole number (0: no limit)');
  }
  return Number(value);
}

function burst(value: string): number {
  const n = count(value);
  if (n < 1) throw new InvalidArgumentError('expected a whole number >= 1');
  return n;
}

/** The per-account limit flags, each also read from its `RCML_*` variable. */
export function serveLimitOptions(): Option[] {
  return [
    envOption('--api-rate <n>', 'API requests per second of each account, then 429 (0: no limit)')
      .argParser(count)
      .default(SERVE_LIMIT_DEFAULTS.apiRate),
    envOption(
      '--api-burst <n>',
      'requests an account may make at once (default: twice --api-rate)',
    ).argParser(burst),
    envOption('--max-live-calls <n>', 'live calls of each account, then POST Calls answers 429 (0: no limit)')
      .argParser(count)
      .default(SERVE_LIMIT_DEFAULTS.maxLiveCalls),
  ];
}

/** The limits the flags ask for; undefined when both are off. */
export function accountLimitsOf(options: ServeLimitOptions): AccountLimits | undefined {
  const limits: AccountLimits = {};
  if (options.apiRate > 0) limits.api = { requestsPerSecond: options.apiRate, burst: options.apiBurst };
  if (options.maxLiveCalls > 0) limits.maxLiveCalls = options.maxLiveCalls;
  return limits.api || limits.maxLiveCalls ? limits : undefined;
}
