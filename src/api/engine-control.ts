/**
 * The {@link CallControl} port implemented on a call {@link Engine}: the REST adapters place,
 * modify and drive calls through it. Calls belong to the account that placed them; an account
 * never sees or changes another's calls (they read as unknown).
 */
import type { Call } from '../engine/call.js';
import type { Engine } from '../engine/engine.js';
import { EngineError } from '../engine/errors.js';
import type { ModifyCallInput } from '../engine/modify-call-schema.js';
import type { CallRecord } from '../engine/records.js';
import type { CreateCallParams } from '../engine/types.js';
import type { Store } from '../store/ports.js';
import {
  type CallControl,
  CallControlError,
  type CreateCallRequest,
  type ModifyCallRequest,
  type SimControl,
} from './platform/call-control.js';

/** Options of {@link createEngineControl}. */
export interface EngineControlOptions {
  /**
   * Where ended calls are found (the store the engine's sink writes to). Lets an ended call of
   * the account answer 409 (not live) rather than 404 when the engine no longer retains it.
   */
  store?: Store;
  /**
   * Resolves once the call's latest record is committed (see `StoreSink.written`): POST Calls
   * answers only then. When it rejects, the call is ended and the request fails with that error.
   */
  committed?: (callSid: string) => Promise<void>;
  /**
   * Whether `/sim` may move what every account shares: the virtual clock and the behaviour of
   * simulated parties. Off: those answer `simulation-off`. Default on.
   */
  sharedSimulation?: boolean;
}

/** Maps an engine refusal to the port's error; anything else is rethrown unchanged. */
function translate(err: unknown): never {
  if (!(err instanceof EngineError)) throw err;
  switch (err.code) {
    case 'invalid-params': {
      // The engine names the field first: `Timeout: must be ...`.
      const field = /^([A-Za-z]+):/.exec(err.message)?.[1];
      throw new CallControlError('invalid', err.message, field);
    }
    case 'unknown-call':
    case 'unknown-conference':
    case 'unknown-number':
      throw new CallControlError('not-found', err.message);
    case 'not-modifiable':
      throw new CallControlError('not-live', err.message);
    case 'clock-not-virtual':
      throw new CallControlError('clock-not-virtual', err.message, 'Seconds');
    case 'closed':
      throw new CallControlError('unavailable', 'the call engine is shutting down');
    default:
      throw new CallControlError('invalid', err.message);
  }
}

const copy = (record: Readonly<CallRecord>): CallRecord => ({ ...record });

/**
 * Adapts an engine to the REST layer's {@link CallControl} port, with simulation control
 * (`sim`). Advancing time needs a virtual clock: on a real one `advance` answers 409.
 */
export function createEngineControl(engine: Engine, options: EngineControlOptions = {}): CallControl {
  const { store } = options;

  const liveOf = (callSid: string): Call | undefined => {
    try {
      return engine.liveCall(callSid);
    } catch {
      return undefined;
    }
  };

  /** The account's live call; 404 when it is unknown or another account's, 409 when ended. */
  const ownedLive = async (accountSid: string, callSid: string): Promise<Call> => {
    const live = liveOf(callSid);
    if (live && live.record.accountSid === accountSid) return live;
    if (!live) {
      const ended = store ? await store.calls.get(accountSid, callSid) : engine.getCall(callSid);
      if (ended && ended.accountSid === accountSid) {
        throw new CallControlError('not-live', `call '${callSid}' has ended (${ended.status})`);
      }
    }
    throw new CallControlError('not-found', `no call with sid '${callSid}'`);
  };

  // Advances run one after another: the virtual clock moves in one direction at a time.
  let advancing: Promise<unknown> = Promise.resolve();
  const shared = options.sharedSimulation ?? true;
  const assertShared = (what: string) => {
    if (!shared) {
      throw new CallControlError(
        'simulation-off',
        `${what} moves what every account shares; this server keeps it off (rcml serve --sim turns it on)`,
      );
    }
  };

  const sim: SimControl = {
    async incomingCall(accountSid, params) {
      // A simulated caller of another account's number is the outside world every account
      // shares: on a server keeping that off, no account injects calls into another's application.
      const owner = engine.numberConfig(params.to)?.accountSid;
      if (owner !== undefined && owner !== accountSid)
        assertShared("a simulated call to another account's number");
      try {
        return copy(engine.incomingCall(params.from, params.to, { accountSid, headers: params.headers }));
      } catch (err) {
        translate(err);
      }
    },
    async setNumber(accountSid, number, config) {
      // A number belongs to the account that provisioned it: no other may re-route its callers.
      const owner = engine.numberConfig(number)?.accountSid;
      if (owner !== undefined && owner !== accountSid) {
        throw new CallControlError(
          'number-unavailable',
          `number '${number}' belongs to another account`,
          'Number',
        );
      }
      engine.setNumber(number, { ...config, accountSid });
    },
    async setParty(_accountSid, address, behaviour) {
      // Simulated phones are shared by the server's accounts, as real numbers would be.
      assertShared('setting a party');
      engine.setParty(address, behaviour);
    },
    async sendDigits(accountSid, callSid, digits) {
      await ownedLive(accountSid, callSid);
      try {
        engine.sendDigits(callSid, digits);
      } catch (err) {
        translate(err);
      }
    },
    async sendSpeech(accountSid, callSid, text) {
      await ownedLive(accountSid, callSid);
      try {
        engine.sendSpeech(callSid, text);
      } catch (err) {
        translate(err);
      }
    },
    advance(ms) {
      try {
        assertShared('advancing the clock');
      } catch (err) {
        return Promise.reject(err);
      }
      const run = advancing.then(async () => {
        try {
          await engine.advance(ms / 1000);
        } catch (err) {
          translate(err);
        }
        return engine.now();
      });
      advancing = run.catch(() => undefined);
      return run;
    },
  };

  return {
    async createCall(accountSid: string, p: CreateCallRequest) {
      const params: CreateCallParams = {
        accountSid,
        From: p.from,
        To: p.to,
        Url: p.url,
        Method: p.method,
        FallbackUrl: p.fallbackUrl,
        FallbackMethod: p.fallbackMethod,
        StatusCallback: p.statusCallback,
        StatusCallbackMethod: p.statusCallbackMethod,
        StatusCallbackEvent: p.statusCallback ? p.statusCallbackEvents : undefined,
        Timeout: p.timeout,
        headers: Object.keys(p.sipHeaders).length > 0 ? p.sipHeaders : undefined,
      };
      let created: CallRecord;
      try {
        created = copy(engine.createCall(params));
      } catch (err) {
        translate(err);
      }
      if (options.committed) {
        try {
          await options.committed(created.sid);
        } catch (err) {
          // Not acknowledged, so not left running: its record says how it ended once written.
          try {
            engine.modifyCall(created.sid, { Status: 'completed' });
          } catch {
            // Already ended.
          }
          throw err;
        }
      }
      return created;
    },

    async modifyCall(accountSid: string, callSid: string, p: ModifyCallRequest) {
      await ownedLive(accountSid, callSid);
      const params: ModifyCallInput = { ChildCallMode: p.childCallMode };
      if (p.url !== undefined) {
        params.Url = p.url;
        params.Method = p.method;
        if (p.fallbackUrl !== undefined) {
          params.FallbackUrl = p.fallbackUrl;
          params.FallbackMethod = p.fallbackMethod;
        }
      }
      if (p.status !== undefined) params.Status = p.status;
      if (p.mute !== undefined) params.Mute = p.mute;
      if (p.statusCallback !== undefined) {
        params.StatusCallback = p.statusCallback;
        params.StatusCallbackMethod = p.statusCallbackMethod;
      }
      try {
        return copy(engine.modifyCall(callSid, params));
      } catch (err) {
        translate(err);
      }
    },

    async muteParticipant(accountSid, conferenceSid, callSid, mute) {
      const room = engine.getConference(conferenceSid);
      if (!room || room.accountSid !== accountSid) {
        throw new CallControlError('not-found', `no conference with sid '${conferenceSid}'`);
      }
      try {
        engine.muteParticipant(conferenceSid, callSid, mute);
      } catch (err) {
        translate(err);
      }
      return copy((await ownedLive(accountSid, callSid)).record);
    },

    async listConferences(accountSid) {
      return engine.listConferences().filter((room) => room.accountSid === accountSid);
    },

    sim,
  };
}
