/** lintProject: static checks the original designer never made, each with its JSON path. */
import { projectEdges } from './edges.js';
import { loadProject } from './load.js';
import { boundedRegexProblem } from './regex.js';
import type { Project, Step } from './schema.js';
import { CORE_PARAMETERS, referencedVariables } from './variables.js';

/** One lint finding. */
export interface LintDiagnostic {
  code:
    | 'designer.invalid-project'
    | 'designer.dangling-target'
    | 'designer.unreachable-module'
    | 'designer.gather-no-exit'
    | 'designer.invalid-regex'
    | 'designer.unknown-variable'
    | 'designer.duplicate-digits'
    /** Something the loader set aside or had to decide (a default) because the project did not say. */
    | 'designer.set-aside';
  severity: 'error' | 'warning';
  path: string;
  message: string;
}

/** Options of {@link lintProject}. */
export interface LintOptions {
  /** Names of project parameters and bootstrap values: variables set outside the steps. */
  knownVariables?: readonly string[];
}

/** Result of {@link lintProject}. */
export interface LintResult {
  diagnostics: LintDiagnostic[];
  /** What the loader upgraded (empty when the JSON did not load). */
  upgrades: string[];
}

/** `core_` names the platform or an action handler can set. */
const CORE_NAMES = new Set(
  [
    ...CORE_PARAMETERS,
    'Digits',
    'SpeechResult',
    'DialCallStatus',
    'DialCallSid',
    'DialCallDuration',
    'DialRingDuration',
    'RecordingUrl',
    'RecordingDuration',
    'EmailSid',
    'EmailStatus',
    'FaxSid',
    'FaxStatus',
  ].map((n) => `core_${n}`),
);

/** Why the bounded engine the patterns run on cannot run `pattern`, if it cannot. */
export function regexProblem(pattern: string): string | undefined {
  // Variables are expanded before the regex is compiled; stand in a plain letter.
  return boundedRegexProblem(pattern.replace(/\$([A-Za-z]+[A-Za-z0-9_]*)/g, 'x'));
}

function regexesOf(step: Step, at: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (step.kind === 'gather') {
    step.menu?.speechMappings.forEach((m, i) => {
      out.push([m.key, `${at}.menu.speechMappings[${i}].key`]);
    });
    for (const key of ['validation', 'speechValidation'] as const) {
      const v = step[key];
      if (v?.userPattern) out.push([`[${v.userPattern}]`, `${at}.${key}.userPattern`]);
      if (v?.regexPattern) out.push([v.regexPattern, `${at}.${key}.regexPattern`]);
    }
  }
  if (step.kind === 'control') {
    step.conditions.forEach((c, i) => {
      if (c.matcher?.regex) out.push([c.matcher.regex, `${at}.conditions[${i}].matcher.regex`]);
    });
    step.actions.forEach((a, i) => {
      if (a.capture) out.push([a.capture.regex, `${at}.actions[${i}].capture.regex`]);
    });
  }
  return out;
}

function setVariables(step: Step): string[] {
  switch (step.kind) {
    case 'gather':
      return [step.collectdigits?.collectVariable, step.collectspeech?.collectVariable].filter(
        (v): v is string => Boolean(v),
      );
    case 'ussdCollect':
      return step.collectdigits ? [step.collectdigits.collectVariable] : [];
    case 'externalService':
      return step.assignments.map((a) => a.destVariable);
    case 'control':
      return step.actions
        .flatMap((a) => [a.assign?.varName, a.capture?.varName])
        .filter((v): v is string => Boolean(v));
    default:
      return [];
  }
}

function* strings(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [value, path];
  else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* strings(value[i], `${path}[${i}]`);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) yield* strings(v, `${path}.${k}`);
  }
}

function gatherHasExit(step: Extract<Step, { kind: 'gather' }>): boolean {
  if (step.gatherType === 'menu') {
    return Boolean(step.menu?.mappings.some((m) => m.next) || step.menu?.speechMappings.some((m) => m.next));
  }
  return Boolean(step.collectdigits?.next || step.collectspeech?.next);
}

/** Lints a loaded project. */
export function lintLoadedProject(project: Project, options: LintOptions = {}): LintDiagnostic[] {
  const out: LintDiagnostic[] = [];
  const modules = new Set(project.nodes.map((n) => n.name));
  const start = project.header.startNodeName;
  if (!modules.has(start)) {
    out.push({
      code: 'designer.dangling-target',
      severity: 'error',
      path: 'header.startNodeName',
      message: `start module "${start}" does not exist`,
    });
  }
  const { edges, dynamic } = projectEdges(project);
  for (const e of edges) {
    if (!modules.has(e.to)) {
      out.push({
        code: 'designer.dangling-target',
        severity: 'error',
        path: e.path,
        message: `"${e.to}" names no module`,
      });
    }
  }
  // Reachability: response-based routing may reach any module, so it silences this check.
  const reached = new Set<string>();
  const queue = modules.has(start) ? [start] : [];
  while (queue.length > 0) {
    const m = queue.pop() as string;
    if (reached.has(m)) continue;
    reached.add(m);
    for (const e of edges) if (e.from === m && modules.has(e.to)) queue.push(e.to);
  }
  const anyDynamic = dynamic.some((d) => reached.has(d.from));
  const settable = new Set<string>(options.knownVariables ?? []);
  for (const node of project.nodes)
    for (const s of node.steps) for (const v of setVariables(s)) settable.add(v);

  project.nodes.forEach((node, n) => {
    if (!anyDynamic && !reached.has(node.name)) {
      out.push({
        code: 'designer.unreachable-module',
        severity: 'warning',
        path: `nodes[${n}]`,
        message: `module "${node.name}" cannot be reached from "${start}"`,
      });
    }
    node.steps.forEach((step, s) => {
      const at = `nodes[${n}].steps[${s}]`;
      if (step.kind === 'gather') {
        if (!gatherHasExit(step)) {
          out.push({
            code: 'designer.gather-no-exit',
            severity: 'warning',
            path: at,
            message: 'no input leads anywhere: the gather has no menu target or collect next',
          });
        }
        const seen = new Map<string, number>();
        step.menu?.mappings.forEach((m, i) => {
          const first = seen.get(m.digits);
          if (first !== undefined) {
            out.push({
              code: 'designer.duplicate-digits',
              severity: 'warning',
              path: `${at}.menu.mappings[${i}].digits`,
              message: `digits "${m.digits}" already mapped at menu.mappings[${first}]`,
            });
          } else seen.set(m.digits, i);
        });
      }
      for (const [pattern, path] of regexesOf(step, at)) {
        const problem = regexProblem(pattern);
        if (problem) {
          out.push({ code: 'designer.invalid-regex', severity: 'error', path, message: problem });
        }
      }
      for (const [text, path] of strings(step, at)) {
        for (const name of referencedVariables(text)) {
          const bare = name.replace(/^(sticky|module)_/, '');
          if (settable.has(bare) || CORE_NAMES.has(name) || name.startsWith('core_x_')) continue;
          out.push({
            code: 'designer.unknown-variable',
            severity: 'warning',
            path,
            message: `$${name} is set by no step, parameter or core name`,
          });
        }
      }
    });
  });
  return out;
}

/**
 * Every pattern of a loaded project the bounded regex engine cannot run (invalid, beyond RE2's
 * syntax, or too long), with its JSON path: what the save path refuses.
 */
export function unrunnablePatterns(project: Project): Array<{ path: string; message: string }> {
  const out: Array<{ path: string; message: string }> = [];
  project.nodes.forEach((node, n) => {
    node.steps.forEach((step, s) => {
      for (const [pattern, path] of regexesOf(step, `nodes[${n}].steps[${s}]`)) {
        const problem = regexProblem(pattern);
        if (problem) out.push({ path, message: `regex ${JSON.stringify(pattern)}: ${problem}` });
      }
    });
  });
  return out;
}

/** Loads (upgrading) and lints project JSON; load problems are reported as errors. */
export function lintProject(json: unknown, options: LintOptions = {}): LintResult {
  const loaded = loadProject(json);
  if (!loaded.ok) {
    return {
      upgrades: [],
      diagnostics: loaded.problems.map((p) => ({
        code: 'designer.invalid-project',
        severity: 'error',
        path: p.path,
        message: p.message,
      })),
    };
  }
  const setAside: LintDiagnostic[] = loaded.warnings.map((w) => ({
    code: 'designer.set-aside',
    severity: 'warning',
    path: w.path,
    message: w.message,
  }));
  return {
    upgrades: loaded.upgrades,
    diagnostics: [...setAside, ...lintLoadedProject(loaded.project, options)],
  };
}
