import type { Transport } from '../transport.js';
import type {
  Call,
  SimAdvance,
  SimCallForm,
  SimDigits,
  SimNumber,
  SimNumberForm,
  SimParty,
  SimSpeech,
} from '../types.js';
import { type CamelCased, wirePairs } from '../wire.js';
import { segment } from './base.js';

/** `client.sim.calls.create(...)`: an inbound call, with the SIP headers of its invitation. */
export type SimCallParams = CamelCased<SimCallForm> & {
  /** Headers of the INVITE by name; a list repeats the header, top-most first. */
  sipHeaders?: Record<string, string | readonly string[]>;
};
export type SimNumberParams = CamelCased<SimNumberForm>;

/**
 * `{base_url}/sim`: the simulation controls of a server with a call engine (an extension of
 * the platform's API), for tests: inbound calls, party behaviours, keys and speech of a live
 * call, and the virtual clock.
 */
export class Sim {
  readonly calls: {
    /**
     * Places an inbound call from `from` to `to` (routed by the number's voice URL). To another
     * account's number, a server keeping shared simulation off answers 403 (`simulation-off`).
     */
    create(params: SimCallParams): Promise<Call>;
    /** Sends keys to a live call (`0-9*#`, `w` waits half a second). */
    digits(callSid: string, digits: string): Promise<SimDigits>;
    /** Makes the party of a live call say `text`. */
    speech(callSid: string, text: string): Promise<SimSpeech>;
  };
  readonly numbers: {
    /**
     * Routes inbound calls to a number to a voice URL or a Visual Designer application; the
     * number becomes the account's (another account's answers 409, `number-unavailable`).
     */
    set(params: SimNumberParams): Promise<SimNumber>;
  };
  readonly parties: {
    /**
     * Sets how a simulated party behaves when called (answers, keys, speech, hang-up). Parties
     * are every account's: a server keeping shared simulation off answers 403 (`simulation-off`).
     */
    set(party: SimParty): Promise<SimParty>;
  };

  constructor(private readonly t: Transport) {
    const url = (path: string) => `${t.baseUrl}/sim${path}`;
    this.calls = {
      create: async ({ sipHeaders, ...fields }) => {
        const form = wirePairs(fields);
        for (const [name, values] of Object.entries(sipHeaders ?? {})) {
          for (const v of typeof values === 'string' ? [values] : values) form.push([`SipHeader_${name}`, v]);
        }
        return t.json({ method: 'POST', url: url('/Calls'), form });
      },
      digits: async (callSid, digits) =>
        t.json({
          method: 'POST',
          url: url(`/Calls/${segment('callSid', callSid)}/Digits`),
          form: [['Digits', digits]],
        }),
      speech: async (callSid, text) =>
        t.json({
          method: 'POST',
          url: url(`/Calls/${segment('callSid', callSid)}/Speech`),
          form: [['Text', text]],
        }),
    };
    this.numbers = {
      set: async (params) => t.json({ method: 'POST', url: url('/Numbers'), form: wirePairs(params) }),
    };
    this.parties = { set: (party) => t.json({ method: 'POST', url: url('/Parties'), json: party }) };
  }

  /**
   * Moves the virtual clock `seconds` ahead, running everything due on the way; answers the
   * new time. A server keeping shared simulation off answers 403 (`simulation-off`); one on the
   * real clock with `--sim` answers 409 (`clock-not-virtual`).
   */
  async advance(seconds: number): Promise<SimAdvance> {
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new RangeError(`seconds: expected a non-negative number, got ${seconds}`);
    }
    return this.t.json({
      method: 'POST',
      url: `${this.t.baseUrl}/sim/Advance`,
      form: [['Seconds', seconds.toFixed(3)]],
    });
  }
}
