import type { Command } from 'commander';

/** Registers `rcml graph`. */
export function registerGraph(_program: Command): void {}
