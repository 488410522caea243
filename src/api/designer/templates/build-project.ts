/** Small builders for template projects: full steps (name, label, title) without the noise. */
import { CURRENT_VERSION } from '../../../designer/schema.js';
import type { DesignerKind } from '../../../store/designer/types.js';

type Fields = Record<string, unknown>;

/** A module with its steps; step names are numbered by {@link project}. */
export interface ModuleSpec {
  name: string;
  label: string;
  steps: Fields[];
}

/** A step of `kind` (its name is filled in by {@link project}). */
export const step = (kind: string, fields: Fields = {}): Fields => ({
  kind,
  label: kind,
  title: kind,
  ...fields,
});

/** A say step. */
export const say = (phrase: string, fields: Fields = {}) => step('say', { phrase, ...fields });

/**
 * A project JSON in the current format: modules named as given, steps (and nested prompts and
 * invalid messages) named `step<N>` in order, `lastStepId`/`lastNodeId` set.
 */
export function project(kind: DesignerKind, modules: ModuleSpec[], owner = ''): Record<string, unknown> {
  let steps = 0;
  const name = (s: Fields): Fields => {
    const out: Fields = { ...s, name: `step${++steps}` };
    if (Array.isArray(s.steps)) out.steps = (s.steps as Fields[]).map(name);
    // The editor saves an invalid message without a name.
    return out;
  };
  return {
    header: {
      projectKind: kind,
      startNodeName: modules[0]?.name ?? 'start',
      version: CURRENT_VERSION,
      owner,
    },
    nodes: modules.map((m) => ({ name: m.name, label: m.label, kind, steps: m.steps.map(name) })),
    lastStepId: 0,
    lastNodeId: modules.length,
  };
}

/** Sets `lastStepId` to the highest step number used. */
export function withCounters(json: Record<string, unknown>): Record<string, unknown> {
  let highest = 0;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      const name = (value as Fields).name;
      if (typeof name === 'string' && /^step\d+$/.test(name))
        highest = Math.max(highest, Number(name.slice(4)));
      Object.values(value).forEach(visit);
    }
  };
  visit(json.nodes);
  return { ...json, lastStepId: highest };
}

/** An empty application: one `start` module labelled "Welcome" (a voice one says hello). */
export function emptyProject(kind: DesignerKind, owner: string): Record<string, unknown> {
  const steps = kind === 'voice' ? [say('Welcome')] : [];
  return withCounters(project(kind, [{ name: 'start', label: 'Welcome', steps }], owner));
}
