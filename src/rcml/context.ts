import type { Diagnostic, Severity, SourcePosition } from './model.js';
import { LineIndex } from './xml/positions.js';

/** Collects diagnostics while a document is read, turning source offsets into line:column. */
export class ReadContext {
  readonly diagnostics: Diagnostic[] = [];
  private readonly lines: LineIndex;

  constructor(source: string) {
    this.lines = new LineIndex(source);
  }

  pos(offset: number): SourcePosition {
    return this.lines.at(offset);
  }

  report(code: string, severity: Severity, message: string, offset: number, path?: string): void {
    const { line, column } = this.lines.at(offset);
    const diagnostic: Diagnostic = { code, severity, message, line, column };
    if (path !== undefined) diagnostic.path = path;
    this.diagnostics.push(diagnostic);
  }

  warn(code: string, message: string, offset: number, path?: string): void {
    this.report(code, 'warning', message, offset, path);
  }

  error(code: string, message: string, offset: number, path?: string): void {
    this.report(code, 'error', message, offset, path);
  }
}
