/** Serving a Visual Designer project as an application of the platform. */
import { createHash } from 'node:crypto';
import { compileProject } from '../designer/compile.js';
import { createDesignerHandler } from '../designer/handler.js';
import type { Engine } from '../engine/engine.js';
import { API_VERSION } from '../engine/records.js';
import type { Store } from '../store/ports.js';
import type { ApplicationRecord } from '../store/types.js';
import type { ServedProjects } from './console/served-projects.js';

/** Options of {@link serveDesignerProject}. */
export interface DesignerApplicationOptions {
  /** Owner of the application record. */
  accountSid: string;
  /** `{base_url}` of the server. */
  baseUrl: string;
  /** Project JSON (`state` file of any supported version). */
  project: unknown;
  /** Application sid. Default: derived from `key` and the account, stable across restarts. */
  sid?: string;
  /** Identifies the project when no sid is given (e.g. its file path). Default its JSON text. */
  key?: string;
  /** Name of a new application record. Default `Visual Designer application`. */
  friendlyName?: string;
  /** Clock of `date_created`/`date_updated`. Default `Date.now`. */
  now?: () => number;
  /** Where the web console finds the project (`EngineServer.servedProjects`) to list and draw it. */
  servedProjects?: ServedProjects;
}

/** What {@link serveDesignerProject} registered. */
export interface DesignerApplication {
  application: ApplicationRecord;
  /** Absolute URL of the controller: the voice URL of numbers routed to the application. */
  controllerUrl: string;
}

/**
 * Compiles a project (throws `ProjectError` when invalid), registers it in the engine as an
 * in-process handler at `{base_url}/visual-designer/services/apps/{sid}/controller`, and stores
 * its application record (`rcml_url` = that path). An existing record keeps its name and
 * creation date.
 */
export async function serveDesignerProject(
  engine: Engine,
  store: Store,
  options: DesignerApplicationOptions,
): Promise<DesignerApplication> {
  const sid =
    options.sid ??
    `AP${createHash('sha256')
      .update(`${options.accountSid}\n${options.key ?? JSON.stringify(options.project)}`)
      .digest('hex')
      .slice(0, 32)}`;
  const compiled = compileProject(options.project, { applicationSid: sid });
  const rcmlUrl = `/visual-designer/services/apps/${sid}/controller`;
  const base = options.baseUrl.replace(/\/+$/, '');
  const controllerUrl = `${base}${rcmlUrl}`;
  engine.registerHandler(controllerUrl, createDesignerHandler(compiled, { baseUrl: controllerUrl }));
  const t = (options.now ?? Date.now)();
  const existing = await store.applications.get(options.accountSid, sid);
  const application: ApplicationRecord = {
    sid,
    accountSid: options.accountSid,
    friendlyName: existing?.friendlyName ?? options.friendlyName ?? 'Visual Designer application',
    kind: 'voice',
    voiceCallerIdLookup: existing?.voiceCallerIdLookup ?? false,
    rcmlUrl,
    apiVersion: API_VERSION,
    dateCreated: existing?.dateCreated ?? t,
    dateUpdated: existing?.dateUpdated ?? t,
  };
  await store.applications.put(application);
  options.servedProjects?.add(options.accountSid, {
    sid,
    name: application.friendlyName,
    project: options.project,
  });
  return { application, controllerUrl };
}
