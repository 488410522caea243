import type { Command } from 'commander';

/** Registers `rcml compile`. */
export function registerCompile(_program: Command): void {}
