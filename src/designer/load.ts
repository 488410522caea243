/** Loads project JSON of any format version: upgrade, then validate every node and step. */
import { z } from 'zod';
import { loadWarnings } from './load-warnings.js';
import { nodeSchema, type Project, projectSchema, type Step, stepSchemas } from './schema.js';
import { formatPath, type ProjectProblem, parseLeniently, problemsOf } from './set-aside.js';
import { UpgradeError, upgradeProject } from './upgrade.js';

export type { ProjectProblem } from './set-aside.js';
export { formatPath } from './set-aside.js';

/**
 * Outcome of {@link loadProject}: every problem at once, never a throw. `warnings` lists what
 * the loader set aside because it could not use it (each with its JSON path).
 */
export type LoadResult =
  | { ok: true; project: Project; fromVersion: string; upgrades: string[]; warnings: ProjectProblem[] }
  | { ok: false; problems: ProjectProblem[] };

// Steps are validated one by one (by kind) for precise paths; this schema checks the rest.
const shellSchema = projectSchema.extend({
  nodes: z.array(nodeSchema.extend({ steps: z.array(z.unknown()) })),
});

const skeletonSchema = z.object({
  header: z.object({}).loose(),
  nodes: z.array(z.object({ name: z.string().min(1), steps: z.array(z.unknown()) }).loose()),
});

/**
 * Loads a project: detects its format version, upgrades it to the current shape and validates
 * it, reporting every problem with its JSON path.
 */
export function loadProject(input: unknown): LoadResult {
  let upgraded: ReturnType<typeof upgradeProject>;
  try {
    upgraded = upgradeProject(input);
  } catch (error) {
    if (error instanceof UpgradeError) {
      return {
        ok: false,
        problems: [{ path: error.path, message: error.message.slice(error.path.length + 2) }],
      };
    }
    throw error;
  }
  const { json } = upgraded;
  const skeleton = skeletonSchema.safeParse(json);
  if (!skeleton.success) return { ok: false, problems: problemsOf(skeleton.error, []) };

  const problems: ProjectProblem[] = [];
  const warnings: ProjectProblem[] = [];
  const nodes = skeleton.data.nodes.map((node, n) => ({
    ...node,
    steps: node.steps.map((step, s) => {
      const at = ['nodes', n, 'steps', s];
      const kind = typeof step === 'object' && step !== null ? (step as { kind?: unknown }).kind : undefined;
      const schema =
        typeof kind === 'string' && Object.hasOwn(stepSchemas, kind)
          ? stepSchemas[kind as keyof typeof stepSchemas]
          : undefined;
      if (!schema) {
        problems.push({
          path: formatPath([...at, 'kind']),
          message: `unknown step kind ${JSON.stringify(kind)} (known: ${Object.keys(stepSchemas).join(', ')})`,
        });
        return undefined;
      }
      const parsed = parseLeniently<Step>(schema as z.ZodType<Step>, step, at);
      if (!parsed.ok) {
        problems.push(...parsed.problems);
        return undefined;
      }
      warnings.push(...parsed.warnings, ...loadWarnings(step, parsed.data, at));
      return parsed.data;
    }),
  }));
  const project = shellSchema.safeParse({ ...json, nodes });
  if (!project.success) {
    // Steps were already reported; keep only the other problems.
    for (const p of problemsOf(project.error, [])) {
      if (!/^nodes\[\d+\]\.steps\[\d+\]/.test(p.path)) problems.push(p);
    }
  }
  const names = new Set<string>();
  skeleton.data.nodes.forEach((node, n) => {
    if (names.has(node.name)) {
      problems.push({ path: `nodes[${n}].name`, message: `duplicate module name "${node.name}"` });
    }
    names.add(node.name);
  });
  if (problems.length > 0 || !project.success) return { ok: false, problems };
  return {
    ok: true,
    project: project.data as Project & { nodes: { steps: Step[] }[] },
    fromVersion: upgraded.fromVersion,
    upgrades: upgraded.upgrades,
    warnings,
  };
}
