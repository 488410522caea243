import { Accounts, Applications } from './resources/accounts.js';
import { Calls } from './resources/calls.js';
import { Clients } from './resources/clients.js';
import { Conferences } from './resources/conferences.js';
import { Gathers } from './resources/gathers.js';
import { Notifications } from './resources/notifications.js';
import { Recordings } from './resources/recordings.js';
import { Sim } from './resources/sim.js';
import { type ClientOptions, createTransport } from './transport.js';

/**
 * A typed client of the platform's REST API (`{api_root}`) and of the `/sim` controls, for one
 * account. Failed answers throw `RcmlApiError`; nothing is retried.
 */
export class RcmlClient {
  readonly accountSid: string;
  /** `{api_root}` the client sends to. */
  readonly apiRoot: string;
  readonly accounts: Accounts;
  readonly calls: Calls;
  readonly recordings: Recordings;
  readonly notifications: Notifications;
  readonly gathers: Gathers;
  readonly applications: Applications;
  readonly clients: Clients;
  readonly conferences: Conferences;
  readonly sim: Sim;

  /** Throws a `TypeError` naming the option when one is missing or malformed. */
  constructor(options: ClientOptions) {
    const t = createTransport(options);
    this.accountSid = t.accountSid;
    this.apiRoot = t.apiRoot;
    this.accounts = new Accounts(t);
    this.calls = new Calls(t);
    this.recordings = new Recordings(t);
    this.notifications = new Notifications(t);
    this.gathers = new Gathers(t);
    this.applications = new Applications(t);
    this.clients = new Clients(t);
    this.conferences = new Conferences(t);
    this.sim = new Sim(t);
  }
}

/** `new RcmlClient(options)`. */
export const createClient = (options: ClientOptions) => new RcmlClient(options);
