import type { Context, Hono } from 'hono';
import { ApiError, badParameter, notFound } from '../http/errors.js';
import { toJson } from '../http/format.js';
import { readFieldLists, readFields } from '../http/params.js';
import { declareRoute } from '../openapi/declare.js';
import type { PartyBehaviour, SimControl } from './call-control.js';
import { parseOrThrow } from './call-params.js';
import { controlOf, type PlatformDeps, type PlatformEnv } from './context.js';
import { callRep } from './representations.js';
import * as ops from './sim-operations.js';

function simOf(deps: PlatformDeps): SimControl {
  const sim = controlOf(deps).sim;
  if (!sim) throw new ApiError(501, 'no-simulation', 'the attached call engine does not simulate parties');
  return sim;
}

function required(fields: Record<string, string>, name: string): string {
  const value = fields[name];
  if (value === undefined || value === '') throw badParameter(name, 'is required');
  return value;
}

async function readJsonObject(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new ApiError(400, 'malformed-body', 'request body must be a JSON object');
  }
}

/**
 * Simulation control, an extension of the platform API (same authentication): place inbound
 * calls, set party behaviours, send digits or speech to a live call, advance the virtual clock.
 */
export function registerSim(app: Hono<PlatformEnv>, deps: PlatformDeps): void {
  const liveCall = async (c: Context<PlatformEnv>) => {
    const callSid = c.req.param('callSid') ?? '';
    if (!(await deps.store.calls.get(c.get('account').sid, callSid))) throw notFound('Call', callSid);
    return callSid;
  };

  app.post('/Calls', declareRoute(ops.createSimCall), async (c) => {
    const lists = await readFieldLists(c);
    const fields = Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, v.join(' ')]));
    // `SipHeader_<name>` fields are the invitation's SIP headers; a repeated one keeps every
    // value, top-most first.
    const headers: Record<string, string | string[]> = {};
    for (const [name, values] of Object.entries(lists)) {
      if (name.startsWith('SipHeader_') && name.length > 'SipHeader_'.length) {
        headers[name.slice('SipHeader_'.length)] = values.length === 1 ? values[0] : values;
      }
    }
    const { From: from, To: to } = parseOrThrow(ops.simCallFields, fields);
    const call = await simOf(deps).incomingCall(c.get('account').sid, {
      from,
      to,
      headers: Object.keys(headers).length > 0 ? headers : undefined,
    });
    return c.json(toJson(callRep(call)));
  });

  app.post('/Numbers', declareRoute(ops.setSimNumber), async (c) => {
    const fields = await readFields(c);
    const number = required(fields, 'Number');
    if (!/^(\+?[0-9*#]+|client:\S+|sip:\S+@\S+)$/.test(number)) {
      throw badParameter('Number', 'expected a number, client:<name> or sip:<user>@<host>');
    }
    const { VoiceUrl: url, ApplicationSid: appSid, VoiceMethod: method } = fields;
    if ((url === undefined) === (appSid === undefined)) {
      throw badParameter('VoiceUrl', 'give either VoiceUrl or ApplicationSid');
    }
    if (method !== undefined && method !== 'GET' && method !== 'POST') {
      throw badParameter('VoiceMethod', 'must be GET or POST');
    }
    let voiceUrl: string;
    if (appSid !== undefined) {
      const application = await deps.store.applications.get(c.get('account').sid, appSid);
      if (!application) throw notFound('Application', appSid);
      if (!deps.baseUrl)
        throw new ApiError(409, 'no-base-url', 'this server has no base URL to reach applications at');
      voiceUrl = new URL(application.rcmlUrl, deps.baseUrl).href;
    } else {
      if (!URL.canParse(url as string)) throw badParameter('VoiceUrl', 'must be an absolute URL');
      voiceUrl = url as string;
    }
    await simOf(deps).setNumber(c.get('account').sid, number, { voiceUrl, voiceMethod: method });
    return c.json({ number, voice_url: voiceUrl, voice_method: method ?? 'POST' });
  });

  app.post('/Parties', declareRoute(ops.setSimParty), async (c) => {
    const parsed = ops.partySchema.safeParse(await readJsonObject(c));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw badParameter(issue.path.join('.') || 'body', issue.message);
    }
    const { address, ...behaviour } = parsed.data;
    await simOf(deps).setParty(c.get('account').sid, address, behaviour satisfies PartyBehaviour);
    return c.json({ address, ...behaviour });
  });

  app.post('/Calls/:callSid/Digits', declareRoute(ops.sendSimDigits), async (c) => {
    const callSid = await liveCall(c);
    const digits = parseOrThrow(ops.digitsFields, await readFields(c)).Digits;
    await simOf(deps).sendDigits(c.get('account').sid, callSid, digits);
    return c.json({ call_sid: callSid, digits });
  });

  app.post('/Calls/:callSid/Speech', declareRoute(ops.sendSimSpeech), async (c) => {
    const callSid = await liveCall(c);
    const text = parseOrThrow(ops.speechFields, await readFields(c)).Text;
    await simOf(deps).sendSpeech(c.get('account').sid, callSid, text);
    return c.json({ call_sid: callSid, text });
  });

  app.post('/Advance', declareRoute(ops.advanceSimClock), async (c) => {
    const raw = parseOrThrow(ops.advanceFields, await readFields(c)).Seconds;
    const now = await simOf(deps).advance(Math.round(Number(raw) * 1000));
    return c.json({ now: new Date(now).toISOString() });
  });
}
