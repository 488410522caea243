import type { HandlerRequest, HandlerResponse, RcmlHandler } from '../engine/types.js';
import type { ScenarioInput } from '../sim/schema.js';

type Variant = { when?: Record<string, string>; rcml: string; contentType?: string; status?: number };

/**
 * Wraps a scenario's in-process handler functions so that each answer is recorded as an app
 * variant (`when` = every parameter of the request, query included): a scenario file cannot
 * hold a function, but it can hold what the function answered in one run. The engine's sids
 * are seeded, so a replay sends the same parameters and gets the same answers.
 */
export class AnswerRecorder {
  private readonly answers = new Map<string, Variant[]>();

  /** `apps` with every function wrapped. */
  wrap(apps: ScenarioInput['apps']): ScenarioInput['apps'] {
    if (!apps) return apps;
    const out: NonNullable<ScenarioInput['apps']> = {};
    for (const [url, app] of Object.entries(apps))
      out[url] = typeof app === 'function' ? this.recording(app) : app;
    return out;
  }

  /** `apps` with every function replaced by the answers it gave. */
  replace(apps: ScenarioInput['apps']): Record<string, string | Variant[]> {
    const out: Record<string, string | Variant[]> = {};
    for (const [url, app] of Object.entries(apps ?? {})) if (typeof app !== 'function') out[url] = app;
    for (const [url, variants] of this.answers) out[url] = variants;
    return out;
  }

  /** True when some function was replaced by recorded answers. */
  get recorded(): boolean {
    return this.answers.size > 0;
  }

  private recording(fn: RcmlHandler): RcmlHandler {
    return (req) => {
      const res = fn(req);
      if (res instanceof Promise) return res.then((r) => this.keep(req, r));
      return this.keep(req, res);
    };
  }

  private keep(req: HandlerRequest, res: HandlerResponse): HandlerResponse {
    const q = req.url.indexOf('?');
    const bare = q < 0 ? req.url : req.url.slice(0, q);
    const when: Record<string, string> = {};
    if (q >= 0) for (const [k, v] of new URLSearchParams(req.url.slice(q + 1))) when[k] = v;
    Object.assign(when, req.params);
    const rcml = typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body);
    const variant: Variant = { when, rcml };
    if (res.contentType !== 'text/xml') variant.contentType = res.contentType;
    if (res.status !== 200) variant.status = res.status;
    let list = this.answers.get(bare);
    if (!list) {
      list = [];
      this.answers.set(bare, list);
    }
    const same = JSON.stringify(when);
    if (!list.some((v) => JSON.stringify(v.when) === same)) list.push(variant);
    return res;
  }
}
