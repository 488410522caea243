import type { Command } from 'commander';

/** Registers `rcml serve`. */
export function registerServe(_program: Command): void {}
