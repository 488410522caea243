/** Building: the saved structure (with the parameters of now) becomes the one that runs. */
import type { Hono } from 'hono';
import { z } from 'zod';
import { ProjectError } from '../../designer/compile.js';
import { type LintDiagnostic, lintProject } from '../../designer/lint.js';
import type { DesignerAppRecord } from '../../store/designer/types.js';
import { ApiError } from '../http/errors.js';
import { appOf, type DesignerDeps, type DesignerEnv } from './context.js';
import { parseQuery } from './input.js';

/** What a build reports. */
export interface BuildOutcome {
  record: DesignerAppRecord;
  diagnostics: LintDiagnostic[];
}

/** A 422 listing every problem of an invalid structure with its JSON path. */
export function invalidStructure(error: ProjectError): ApiError & { problems: ProjectError['problems'] } {
  const err = new ApiError(
    422,
    'invalid-structure',
    `the application structure is invalid: ${error.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
  ) as ApiError & { problems: ProjectError['problems'] };
  err.problems = error.problems;
  return err;
}

/**
 * Compiles the saved structure, stores it as the next build and installs it in the runtime.
 * @throws {ApiError} 422 when the structure does not compile (nothing changes).
 */
export async function buildApp(deps: DesignerDeps, record: DesignerAppRecord): Promise<BuildOutcome> {
  const parameters = await deps.config.designer.parameters.list(record.sid);
  const version = (record.build?.version ?? 0) + 1;
  let running: ReturnType<typeof deps.runtime.compile>;
  try {
    running = deps.runtime.compile(record.sid, { state: record.state, parameters, version });
  } catch (error) {
    if (error instanceof ProjectError) throw invalidStructure(error);
    throw error;
  }
  const t = deps.config.now();
  const built: DesignerAppRecord = {
    ...record,
    dateUpdated: t,
    build: { version, state: record.state, parameters, dateBuilt: t },
  };
  if ((await deps.config.designer.apps.update(built)) !== 'updated') {
    throw new ApiError(404, 'not-found', `Application ${record.sid} not found`);
  }
  deps.runtime.install(built, running);
  await deps.runtime.announce(built.accountSid, built.sid);
  const knownVariables = parameters.map((p) => p.name);
  return { record: built, diagnostics: lintProject(record.state, { knownVariables }).diagnostics };
}

/** Query of `POST /projects/{sid}/build`. */
export const buildQuery = z.object({
  type: z.enum(['voice', 'sms', 'ussd'], { error: 'expected voice, sms or ussd' }).optional(),
});

/** `POST /projects/{sid}/build?type=voice|sms`. */
export function registerBuild(app: Hono<DesignerEnv>, deps: DesignerDeps): void {
  app.post('/projects/:sid/build', async (c) => {
    const { type } = parseQuery(c, buildQuery);
    const record = await appOf(c, deps);
    if (type !== undefined && type !== record.kind) {
      throw new ApiError(
        400,
        'invalid-parameter',
        `type: the application is ${record.kind}, not ${type}`,
        'type',
      );
    }
    const { record: built, diagnostics } = await buildApp(deps, record);
    const build = built.build as NonNullable<DesignerAppRecord['build']>;
    return c.json({
      sid: built.sid,
      version: build.version,
      dateBuilt: new Date(build.dateBuilt).toISOString(),
      diagnostics,
    });
  });
}
