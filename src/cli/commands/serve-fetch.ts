/**
 * The outgoing-request flags of `rcml serve`: how much of a document is read, how long a
 * request may take in all, and how long requests in flight may finish when the server stops.
 */
import { InvalidArgumentError, type Option } from 'commander';
import { FETCH_DEFAULTS, type HttpFetcherOptions } from '../../engine/fetcher.js';
import { envOption } from '../env-option.js';

/** Values of the outgoing-request flags, as commander hands them over. */
export interface ServeFetchOptions {
  maxDocumentBytes: number;
  fetchDeadline: number;
  closeGrace: number;
}

function bytes(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError('expected a whole number of bytes >= 1');
  }
  return n;
}

/** Seconds, fractions allowed (`0.5`); `positive`: zero is refused. */
function seconds(positive: boolean) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(n) || (positive && n <= 0) || n > 86_400) {
      throw new InvalidArgumentError(`expected seconds ${positive ? '> 0' : '>= 0'} and at most 86400`);
    }
    return n;
  };
}

/** The outgoing-request flags, each also read from its `RCML_*` variable. */
export function serveFetchOptions(): Option[] {
  return [
    envOption(
      '--max-document-bytes <n>',
      'bytes of an RCML document read at most; a longer one fails like an unreachable URL',
    )
      .argParser(bytes)
      .default(FETCH_DEFAULTS.maxDocumentBytes),
    envOption(
      '--fetch-deadline <s>',
      'most seconds an outgoing request may take in all, redirects and body included',
    )
      .argParser(seconds(true))
      .default(FETCH_DEFAULTS.deadlineMs / 1000),
    envOption(
      '--close-grace <s>',
      'on stop, seconds outgoing requests in flight may finish before they are aborted',
    )
      .argParser(seconds(false))
      .default(FETCH_DEFAULTS.closeGraceMs / 1000),
  ];
}

/** The fetcher options the flags give. */
export function fetcherOptionsOf(
  options: ServeFetchOptions,
): Pick<HttpFetcherOptions, 'maxDocumentBytes' | 'deadlineMs' | 'closeGraceMs'> {
  return {
    maxDocumentBytes: options.maxDocumentBytes,
    deadlineMs: Math.round(options.fetchDeadline * 1000),
    closeGraceMs: Math.round(options.closeGrace * 1000),
  };
}
