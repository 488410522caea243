import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The docs' curl examples send form fields with --data-urlencode: with -d, curl sends a `+` as
// is and the server reads it as a space (`To=+1555...` becomes " 1555...", code 21211).

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** `-d`, `--data`, `--data-raw` or `--data-binary` given `name=value`, not a JSON body or a file. */
const RAW_FORM_FIELD = /(?:^|\s)(?:-d|--data|--data-raw|--data-binary)[\s=]+['"]?[A-Za-z_][\w.[\]]*=/;

/** Each curl command of the text's fenced code blocks, continuation lines joined. */
function curlCommands(text: string): Array<{ line: number; command: string }> {
  const commands: Array<{ line: number; command: string }> = [];
  for (const block of text.matchAll(/^(```|~~~)[^\n]*\n([\s\S]*?)^\1[^\n]*$/gm)) {
    const first = text.slice(0, block.index).split('\n').length + 1;
    const lines = (block[2] ?? '').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!/\bcurl\b/.test(lines[i] ?? '')) continue;
      let command = lines[i] ?? '';
      let j = i;
      while (/\\\s*$/.test(lines[j] ?? '') && j + 1 < lines.length) command += `\n${lines[++j]}`;
      commands.push({ line: first + i, command });
      i = j;
    }
  }
  return commands;
}

function rawFormFields(file: string): string[] {
  return curlCommands(readFileSync(file, 'utf8'))
    .filter(({ command }) => RAW_FORM_FIELD.test(command))
    .map(({ line, command }) => `${relative(root, file)}:${line}: ${command}`);
}

const files = [
  join(root, 'README.md'),
  ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, 'docs', name)),
];

describe('curl examples of the README and docs', () => {
  it.each(files.map((file) => [relative(root, file), file]))(
    '%s: send form fields with --data-urlencode',
    (_, file) => {
      expect(rawFormFields(file)).toEqual([]);
    },
  );

  it('tell a raw form field from a JSON body, a file and an encoded field', () => {
    const text = [
      '```sh',
      'curl -s $API/Calls.json --data-urlencode To=+15550100 \\',
      '     -d \'{"address":"+1"}\' -F file=@hold.wav',
      'curl -s $API/Clients.json \\',
      '  -d Login=alice',
      '```',
    ].join('\n');
    const found = curlCommands(text).filter(({ command }) => RAW_FORM_FIELD.test(command));
    expect(found.map((c) => c.line)).toEqual([4]);
  });
});
