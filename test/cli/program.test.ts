import { describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';

describe('rcml program', () => {
  it('names itself and describes its purpose in --help', () => {
    const help = createProgram().helpInformation();
    expect(help).toMatch(/^Usage: rcml /);
    expect(help).toContain('RCML engine');
  });
});
