/** Numbers as the platform reads numeric comparison operands (Java's Float.parseFloat). */

// Decimal forms Float.parseFloat accepts, with an optional f/F/d/D suffix.
const DECIMAL = /^[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?)$/;

/**
 * The single-precision value of `text`, or undefined when Java would refuse it (empty or not a
 * number). Leading and trailing control characters and spaces are ignored, as in Java.
 */
export function javaFloat(text: string): number | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: Java's trim() drops every char <= ' '.
  const trimmed = text.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  if (!DECIMAL.test(trimmed)) return undefined;
  const body = trimmed.replace(/[fFdD]$/, '');
  return Math.fround(body.endsWith('NaN') ? Number.NaN : Number(body));
}
