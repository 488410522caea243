/** projectGraph: the module graph as Mermaid flowchart text. */
import { projectEdges } from './edges.js';
import type { Project } from './schema.js';

const ENTITY: Readonly<Record<string, string>> = { '"': '#quot;', '<': '#lt;', '>': '#gt;' };

/** True for a character a quoted Mermaid label cannot hold as it is. */
function unsafeInLabel(code: number): boolean {
  return (
    code < 0x20 ||
    code === 0x7f ||
    code === 0x2028 ||
    code === 0x2029 ||
    '#"<>`'.includes(String.fromCharCode(code))
  );
}

/**
 * Escapes text for a quoted Mermaid label: quotes, angle brackets, `#`, backticks and every
 * control character (line breaks above all, which would end the statement and let a module
 * label write statements of its own) become Mermaid entity codes (`#quot;`, `#10;`).
 */
export function quote(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.charCodeAt(0);
    out += unsafeInLabel(code) ? (ENTITY[c] ?? `#${code};`) : c;
  }
  return `"${out}"`;
}

/**
 * Draws the project's modules and the links between them (menu digits, speech keys, collect,
 * dial outcome, routes...) as a Mermaid `flowchart TD`. Targets that name no module are drawn
 * as red "missing" nodes; response-based routing points at a "decided at run time" node.
 */
export function projectGraph(project: Project): string {
  const ids = new Map<string, string>();
  project.nodes.forEach((n, i) => {
    ids.set(n.name, `m${i}`);
  });
  const lines = ['flowchart TD'];
  for (const n of project.nodes) {
    const label = n.label && n.label !== n.name ? `${n.label} (${n.name})` : n.name;
    const id = ids.get(n.name) as string;
    lines.push(
      n.name === project.header.startNodeName ? `  ${id}([${quote(label)}])` : `  ${id}[${quote(label)}]`,
    );
  }
  const { edges, dynamic } = projectEdges(project);
  const missing: string[] = [];
  const idOf = (name: string): string => {
    const known = ids.get(name);
    if (known) return known;
    const id = `x${missing.length}`;
    ids.set(name, id);
    missing.push(id);
    lines.push(`  ${id}[${quote(`missing: ${name}`)}]`);
    return id;
  };
  for (const e of edges) {
    lines.push(`  ${idOf(e.from)} -->|${quote(e.label)}| ${idOf(e.to)}`);
  }
  if (dynamic.length > 0) {
    lines.push(`  dyn{{${quote('decided at run time')}}}`);
    for (const d of dynamic) lines.push(`  ${idOf(d.from)} -.->|${quote(d.label)}| dyn`);
  }
  if (missing.length > 0) {
    lines.push('  classDef missing fill:#fdd,stroke:#c00');
    lines.push(`  class ${missing.join(',')} missing`);
  }
  return `${lines.join('\n')}\n`;
}
