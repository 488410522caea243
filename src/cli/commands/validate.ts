import type { Command } from 'commander';

/** Registers `rcml validate`. */
export function registerValidate(_program: Command): void {}
