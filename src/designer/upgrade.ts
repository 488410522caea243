/**
 * Upgrades project JSON of any format version (`rvd714`, 1.0 ... 1.14) to the current shape
 * (1.15), on plain JSON before validation. Each change is reported so users can see what the
 * loader did to their file.
 */
import { MAX_PROJECT_DEPTH, tooDeepAt } from './json-depth.js';
import { CURRENT_VERSION } from './schema.js';
import { formatPath } from './set-aside.js';

/** Every format version the loader accepts, oldest first. */
export const FORMAT_VERSIONS = [
  'rvd714',
  '1.0',
  '1.1',
  '1.2',
  '1.3',
  '1.4',
  '1.5',
  '1.6',
  '1.7',
  '1.8',
  '1.9',
  '1.10',
  '1.11',
  '1.12',
  '1.13',
  '1.14',
  '1.15',
] as const;

/** Result of an upgrade: the JSON in the current shape and what was changed. */
export interface UpgradeResult {
  fromVersion: string;
  json: Record<string, unknown>;
  upgrades: string[];
}

/** A project whose format version is unknown or whose shape is too broken to upgrade. */
export class UpgradeError extends Error {
  readonly code = 'designer.version';
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(`${path}: ${message}`);
  }
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Detects the format version of raw project JSON. */
export function detectVersion(json: Json): string {
  const header = json.header;
  if (!isObject(header)) return 'rvd714';
  const version = header.version;
  if (typeof version !== 'string') throw new UpgradeError('required (string)', 'header.version');
  if (!(FORMAT_VERSIONS as readonly string[]).includes(version)) {
    throw new UpgradeError(
      `unknown format version "${version}" (known: ${FORMAT_VERSIONS.join(', ')})`,
      'header.version',
    );
  }
  return version;
}

/** Upgrades raw project JSON (not mutated) to the current format. */
export function upgradeProject(input: unknown): UpgradeResult {
  if (!isObject(input)) throw new UpgradeError('a project must be a JSON object', '$');
  // Before cloning: a value nested deeper than the stack cannot be cloned.
  const deep = tooDeepAt(input);
  if (deep) throw new UpgradeError(`nested deeper than ${MAX_PROJECT_DEPTH} levels`, formatPath(deep));
  const json = structuredClone(input) as Json;
  const fromVersion = detectVersion(json);
  const upgrades: string[] = [];
  let index = FORMAT_VERSIONS.indexOf(fromVersion as (typeof FORMAT_VERSIONS)[number]);
  if (index === 0) {
    upgradeFrom714(json, upgrades);
    index = 1;
  }
  if (index < FORMAT_VERSIONS.indexOf('1.6')) upgradeTo16(json, upgrades);
  if (index < FORMAT_VERSIONS.indexOf('1.15')) upgradeTo115(json, upgrades);
  if (fromVersion !== CURRENT_VERSION) {
    (json.header as Json).version = CURRENT_VERSION;
    upgrades.push(`format version ${fromVersion} -> ${CURRENT_VERSION}`);
  }
  delete json.activeNode;
  delete json.exceptionHandlingInfo;
  delete json.iface;
  return { fromVersion, json, upgrades };
}

function nodesOf(json: Json): Json[] {
  return Array.isArray(json.nodes) ? json.nodes.filter(isObject) : [];
}

function stepsOf(node: Json): Json[] {
  return Array.isArray(node.steps) ? node.steps.filter(isObject) : [];
}

/** rvd714: no header, steps as a map with `stepnames[]`, flat gather fields, one dial target. */
function upgradeFrom714(json: Json, upgrades: string[]): void {
  json.header = {
    projectKind: 'voice',
    startNodeName: typeof json.startNodeName === 'string' ? json.startNodeName : 'start',
    version: '1.0',
  };
  delete json.startNodeName;
  upgrades.push('header created from the root startNodeName');
  nodesOf(json).forEach((node, n) => {
    const steps = stepMapToArray(node);
    if (steps) {
      node.steps = steps;
      upgrades.push(`nodes[${n}].steps: map + stepnames converted to an array`);
    }
    delete node.stepnames;
    node.kind ??= 'voice';
    stepsOf(node).forEach((step, s) => {
      const at = `nodes[${n}].steps[${s}]`;
      if (step.kind === 'gather') upgradeGather714(step, at, upgrades);
      if (step.kind === 'dial') upgradeDial714(step, at, upgrades);
      if (step.kind === 'play') upgradePlay714(step, at, upgrades);
    });
  });
}

/** A `steps` map plus `stepnames[]` (rvd714) as an ordered array, or undefined. */
function stepMapToArray(holder: Json): Json[] | undefined {
  if (!isObject(holder.steps)) return undefined;
  const map = holder.steps;
  const order = Array.isArray(holder.stepnames)
    ? holder.stepnames.filter((s): s is string => typeof s === 'string')
    : Object.keys(map);
  delete holder.stepnames;
  return order.map((name) => map[name]).filter(isObject);
}

/** rvd714 play: flat `wavUrl` / `wavLocalFilename` become `remote.wavUrl` / `local.wavLocalFilename`. */
function upgradePlay714(step: Json, at: string, upgrades: string[]): void {
  if (!('wavUrl' in step) && !('wavLocalFilename' in step)) return;
  if (!isObject(step.remote)) step.remote = { wavUrl: typeof step.wavUrl === 'string' ? step.wavUrl : '' };
  if (!isObject(step.local)) {
    step.local = { wavLocalFilename: typeof step.wavLocalFilename === 'string' ? step.wavLocalFilename : '' };
  }
  delete step.wavUrl;
  delete step.wavLocalFilename;
  upgrades.push(`${at}: flat wavUrl/wavLocalFilename moved to remote/local`);
}

function upgradeGather714(step: Json, at: string, upgrades: string[]): void {
  const prompts = stepMapToArray(step);
  if (prompts) {
    step.steps = prompts;
    upgrades.push(`${at}.steps: map + stepnames converted to an array`);
  }
  stepsOf(step).forEach((prompt, p) => {
    if (prompt.kind === 'play') upgradePlay714(prompt, `${at}.steps[${p}]`, upgrades);
  });
  if (Array.isArray(step.mappings) && !isObject(step.menu)) {
    step.menu = { mappings: step.mappings };
    delete step.mappings;
    upgrades.push(`${at}: flat menu mappings moved to menu.mappings`);
  }
  if (typeof step.collectVariable === 'string' && !isObject(step.collectdigits)) {
    step.collectdigits = {
      collectVariable: step.collectVariable,
      next: step.next ?? null,
      scope: 'module',
    };
    delete step.collectVariable;
    delete step.next;
    upgrades.push(`${at}: flat collect fields moved to collectdigits (scope module)`);
  }
  if (isObject(step.collectdigits)) step.collectdigits.scope ??= 'module';
}

function upgradeDial714(step: Json, at: string, upgrades: string[]): void {
  if (Array.isArray(step.dialNouns)) return;
  const dialType = typeof step.dialType === 'string' ? step.dialType : 'number';
  const fromType = step[dialType];
  const destination = isObject(fromType)
    ? fromType.destination
    : typeof fromType === 'string'
      ? fromType
      : step.destination;
  step.dialNouns = [{ dialType, destination: destination ?? null }];
  delete step.dialType;
  delete step.destination;
  delete step[dialType];
  upgrades.push(`${at}: single ${dialType} target converted to dialNouns[]`);
}

/** 1.6: menu digits became strings. */
function upgradeTo16(json: Json, upgrades: string[]): void {
  nodesOf(json).forEach((node, n) => {
    stepsOf(node).forEach((step, s) => {
      const menu = step.menu;
      if (!isObject(menu) || !Array.isArray(menu.mappings)) return;
      menu.mappings.forEach((mapping, m) => {
        if (isObject(mapping) && typeof mapping.digits === 'number') {
          mapping.digits = String(mapping.digits);
          upgrades.push(`nodes[${n}].steps[${s}].menu.mappings[${m}].digits: number -> string`);
        }
      });
    });
  });
}

/** 1.15: conference nouns lost `statusCallback`, `statusCallbackModule` and `nextModule`. */
function upgradeTo115(json: Json, upgrades: string[]): void {
  nodesOf(json).forEach((node, n) => {
    stepsOf(node).forEach((step, s) => {
      if (!Array.isArray(step.dialNouns)) return;
      step.dialNouns.forEach((noun, d) => {
        if (!isObject(noun) || noun.dialType !== 'conference') return;
        for (const key of ['statusCallback', 'statusCallbackModule', 'nextModule']) {
          if (key in noun) {
            delete noun[key];
            upgrades.push(`nodes[${n}].steps[${s}].dialNouns[${d}].${key}: dropped`);
          }
        }
      });
    });
  });
}
