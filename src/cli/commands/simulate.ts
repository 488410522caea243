import type { Command } from 'commander';

/** Registers `rcml simulate`. */
export function registerSimulate(_program: Command): void {}
