/**
 * The running side of the service: the compiled build of each application, which build each
 * call runs (a call keeps the build it started with), rendering, and the application logs.
 * Compiled builds live in this process; the store holds what they are compiled from. In a
 * cluster a build, settings change or deletion made through another node arrives as a change
 * notice: the application is dropped here and compiled again from the store when next rendered.
 */
import { type CompiledApp, compileProject } from '../../designer/compile.js';
import type { FetchLike } from '../../designer/context.js';
import type { SharedChanges } from '../../store/changes.js';
import type { DesignerStore } from '../../store/designer/ports.js';
import type { DesignerAppRecord, DesignerBuild, DesignerSettings } from '../../store/designer/types.js';
import { logLine, logs } from './app-log.js';

/** What the runtime needs of the service's configuration. */
export interface RuntimeOptions {
  designer: DesignerStore;
  now: () => number;
  logMaxBytes: number;
  maxPinnedCalls: number;
  fetch?: FetchLike;
  esMaxTimeout: number;
  /** Where an application's local media files are served. */
  mediaPath: (sid: string) => string;
  /** Change notices between the nodes of a cluster. */
  changes: SharedChanges;
}

/** Area of the change notices of applications (key: the application sid). */
export const DESIGNER_APP_AREA = 'designer-app';

/** One compiled build. */
export interface RunningBuild {
  version: number;
  app: CompiledApp;
}

interface LiveApp {
  accountSid: string;
  settings: DesignerSettings;
  build?: RunningBuild;
}

/** A controller request. */
export interface ControllerRequest {
  /** The owner the request speaks for; another account's application is not found. */
  accountSid: string;
  sid: string;
  target: string;
  params: Record<string, string>;
}

/** A controller answer: RCML, or a reason there is none. */
export type ControllerResult =
  | { ok: true; xml: string; version: number }
  | { ok: false; status: 404 | 409; code: string; message: string };

/** Compiles builds on demand and renders them for the controller. */
export class DesignerRuntime {
  private readonly live = new Map<string, LiveApp>();
  /** `${sid} ${CallSid}` -> the build that call started with, least recently used first. */
  private readonly pins = new Map<string, RunningBuild>();
  private readonly pending = new Map<string, string[]>();
  /** Moves on with every drop: a store read begun before one is not kept (it may be stale). */
  private drops = 0;
  private readonly unsubscribe: () => void;

  constructor(private readonly config: RuntimeOptions) {
    this.unsubscribe = config.changes.subscribe({
      changed: (notice) => {
        if (notice.area === DESIGNER_APP_AREA) this.drop(notice.key);
      },
      reset: () => this.drop(),
    });
  }

  /** Tells the other nodes that an application's build, settings or existence changed. */
  announce(accountSid: string, sid: string): Promise<void> {
    return this.config.changes.publish({ area: DESIGNER_APP_AREA, accountSid, key: sid });
  }

  /**
   * Forgets the compiled build and settings of one application (every one without `sid`); the
   * builds calls are pinned to stay.
   */
  drop(sid?: string): void {
    this.drops += 1;
    if (sid === undefined) this.live.clear();
    else this.live.delete(sid);
  }

  /** Stops hearing change notices. */
  close(): void {
    this.unsubscribe();
  }

  /** Compiles a build (throws `ProjectError` when the structure is invalid). */
  compile(sid: string, build: Pick<DesignerBuild, 'state' | 'parameters' | 'version'>): RunningBuild {
    const app = compileProject(build.state, {
      parameters: build.parameters,
      applicationSid: sid,
      mediaBaseUrl: this.config.mediaPath(sid),
      fetch: this.config.fetch,
      esMaxTimeout: this.config.esMaxTimeout,
      onLog: (entry) => {
        const live = this.live.get(sid);
        if (!live || !logs(live.settings, entry.kind)) return;
        const lines = this.pending.get(sid) ?? [];
        lines.push(logLine(this.config.now(), entry));
        this.pending.set(sid, lines);
      },
    });
    return { version: build.version, app };
  }

  /** Makes the record's build and settings the ones that run (after a build or a settings change). */
  install(record: DesignerAppRecord, compiled?: RunningBuild): void {
    const build = compiled ?? (record.build ? this.compileStored(record.sid, record.build) : undefined);
    this.live.set(record.sid, { accountSid: record.accountSid, settings: record.settings, build });
  }

  /** Forgets a deleted application. */
  forget(sid: string): void {
    this.drop(sid);
    this.pending.delete(sid);
  }

  private compileStored(sid: string, build: DesignerBuild): RunningBuild | undefined {
    try {
      return this.compile(sid, build);
    } catch {
      // A stored build was valid when made; one that no longer loads does not run.
      return undefined;
    }
  }

  private async liveApp(accountSid: string, sid: string): Promise<LiveApp | undefined> {
    let live = this.live.get(sid);
    if (!live) {
      const drops = this.drops;
      const record = await this.config.designer.apps.get(accountSid, sid);
      if (!record) return undefined;
      const build = record.build ? this.compileStored(record.sid, record.build) : undefined;
      live = { accountSid: record.accountSid, settings: record.settings, build };
      // Installed only when no notice came while the store was read (or a build was made here).
      if (this.drops === drops && !this.live.has(sid)) this.live.set(sid, live);
    }
    return live.accountSid === accountSid ? live : undefined;
  }

  private buildFor(sid: string, live: LiveApp, callSid: string | undefined): RunningBuild | undefined {
    if (!callSid) return live.build;
    const key = `${sid} ${callSid}`;
    const pinned = this.pins.get(key);
    if (pinned) {
      this.pins.delete(key);
      this.pins.set(key, pinned);
      return pinned;
    }
    if (!live.build) return undefined;
    this.pins.set(key, live.build);
    if (this.pins.size > this.config.maxPinnedCalls)
      this.pins.delete(this.pins.keys().next().value as string);
    return live.build;
  }

  /** Renders a target of the application's build (the one the call started with, if any). */
  async render(req: ControllerRequest): Promise<ControllerResult> {
    const live = await this.liveApp(req.accountSid, req.sid);
    if (!live)
      return { ok: false, status: 404, code: 'not-found', message: `Application ${req.sid} not found` };
    const build = this.buildFor(req.sid, live, req.params.CallSid);
    if (!build) {
      return {
        ok: false,
        status: 409,
        code: 'not-built',
        message: `Application ${req.sid} has no build to run`,
      };
    }
    const result = await build.app.render(req.target, req.params);
    await this.flushLog(req.sid);
    return { ok: true, xml: result.xml, version: build.version };
  }

  /** Writes the lines waiting for an application's log. */
  async flushLog(sid: string): Promise<void> {
    const lines = this.pending.get(sid);
    if (!lines || lines.length === 0) return;
    this.pending.delete(sid);
    await this.config.designer.logs.append(sid, lines, this.config.logMaxBytes);
  }
}
