/** JSON.parse with the line and column of a syntax error (Node's messages do not always say). */

/** A JSON syntax error at 1-based `line`:`column`. */
export interface JsonSyntaxError {
  line: number;
  column: number;
  message: string;
}

/** Offset of the first syntax error of `text` (a small scanner; only run after JSON.parse failed). */
function errorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) {
        i++;
        return;
      }
      for (;;) {
        if (c === '{') {
          ws();
          if (text[i] !== '"') fail();
          string();
          ws();
          if (text[i] !== ':') fail();
          i++;
        }
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === close) {
          i++;
          return;
        } else fail();
      }
    }
    if (c === '"') {
      string();
      return;
    }
    const m = /^(-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += (m as RegExpExecArray)[0].length;
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if ((text.charCodeAt(i) as number) < 0x20) fail();
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  try {
    value();
    ws();
    return i < text.length ? i : text.length;
  } catch (at) {
    return typeof at === 'number' ? at : 0;
  }
}

/** Parses JSON; on a syntax error returns where it is. */
export function parseJson(
  text: string,
): { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const offset = errorOffset(text);
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { line, column, message } };
  }
}
