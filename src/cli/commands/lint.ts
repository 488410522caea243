import type { Command } from 'commander';

/** Registers `rcml lint`. */
export function registerLint(_program: Command): void {}
