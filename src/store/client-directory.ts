import type { AccountRepository, ClientRepository } from './ports.js';

/**
 * A client as the SIP registrar checks it: its account and digest password, and the voice URL
 * its own calls run.
 */
export interface DirectoryEntry {
  accountSid: string;
  password: string;
  voice?: { url: string; method: 'GET' | 'POST'; fallbackUrl?: string; fallbackMethod: 'GET' | 'POST' };
}

/**
 * The active clients of every account by login, read synchronously (the SIP registrar answers
 * a REGISTER without waiting on the store). Writes made through `repository` reload it before
 * they resolve, so a client created over REST can register as soon as its answer is sent;
 * writes of other nodes or processes are seen at the next periodic reload.
 */
export interface ClientDirectory {
  clientsOf(login: string): readonly DirectoryEntry[];
  /** The repository to write through: its `put` and `delete` reload the directory. */
  readonly repository: ClientRepository;
  reload(): Promise<void>;
  /** Stops the periodic reload. */
  close(): void;
}

export interface ClientDirectoryOptions {
  /** Period of the reload that picks up other writers' changes, ms (default 5,000; 0: none). */
  reloadMs?: number;
  /**
   * With them, clients of a suspended or closed account are left out (a change of an account's
   * status is seen at the next reload).
   */
  accounts?: AccountRepository;
  /**
   * The URL of an account's application (a client's `voiceApplicationSid`), undefined when it
   * has none of that sid. With it, a client's application runs its calls rather than its
   * `voiceUrl`, as on the platform; without it, or when the application is gone, `voiceUrl`.
   */
  applicationUrl?: (accountSid: string, applicationSid: string) => Promise<string | undefined>;
  /** Told of a failed reload, periodic or after a write (the directory keeps what it had). */
  onError?: (err: unknown) => void;
}

/** Loads the clients of `repository` and keeps them by login. */
export async function openClientDirectory(
  repository: ClientRepository,
  options: ClientDirectoryOptions = {},
): Promise<ClientDirectory> {
  let byLogin = new Map<string, DirectoryEntry[]>();
  let pending: Promise<void> = Promise.resolve();
  const load = async () => {
    const next = new Map<string, DirectoryEntry[]>();
    const inactive = new Set(
      ((await options.accounts?.list()) ?? [])
        .filter((a) => (a.status ?? 'active') !== 'active')
        .map((a) => a.sid),
    );
    // Each application looked up once a load, however many clients name it.
    const applications = new Map<string, Promise<string | undefined>>();
    const applicationOf = (accountSid: string, sid: string) => {
      const key = `${accountSid}/${sid}`;
      let url = applications.get(key);
      if (!url) {
        url = options.applicationUrl?.(accountSid, sid) ?? Promise.resolve(undefined);
        applications.set(key, url);
      }
      return url;
    };
    for (const c of await repository.all()) {
      if (c.status !== 'active' || inactive.has(c.accountSid)) continue;
      const entries = next.get(c.login) ?? [];
      const application = c.voiceApplicationSid
        ? await applicationOf(c.accountSid, c.voiceApplicationSid)
        : undefined;
      const fallback = { fallbackUrl: c.voiceFallbackUrl, fallbackMethod: c.voiceFallbackMethod };
      entries.push({
        accountSid: c.accountSid,
        password: c.password,
        voice: application
          ? { url: application, method: 'POST', ...fallback }
          : c.voiceUrl
            ? { url: c.voiceUrl, method: c.voiceMethod, ...fallback }
            : undefined,
      });
      next.set(c.login, entries);
    }
    byLogin = next;
  };
  // One load at a time, in order: a slow older load never overwrites a newer one.
  const reload = () => {
    pending = pending.then(load, load);
    return pending;
  };
  await reload();
  const reloadMs = options.reloadMs ?? 5000;
  const timer =
    reloadMs > 0
      ? setInterval(() => reload().catch((err: unknown) => options.onError?.(err)), reloadMs)
      : undefined;
  timer?.unref();
  // The write has happened: a failed reload is reported, not the write's failure.
  const after = async <T>(result: T) => {
    await reload().catch((err: unknown) => options.onError?.(err));
    return result;
  };
  return {
    clientsOf: (login) => byLogin.get(login) ?? [],
    repository: {
      ...repository,
      put: async (client) => after(await repository.put(client)),
      delete: async (accountSid, sid) => after(await repository.delete(accountSid, sid)),
    },
    reload,
    close: () => clearInterval(timer),
  };
}
