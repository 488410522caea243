/**
 * Visual Designer projects a server runs from a file (`rcml serve --project`), kept for the
 * console: they are platform applications but not records of the designer service, so the
 * console lists them and draws their graphs from here.
 */

/** A project served as an application. */
export interface ServedProject {
  sid: string;
  name: string;
  /** The project JSON, as loaded. */
  project: unknown;
}

export interface ServedProjects {
  add(accountSid: string, project: ServedProject): void;
  /** The account's projects, in the order they were added. */
  list(accountSid: string): ServedProject[];
  /** One of the account's projects; undefined when unknown or another account's. */
  get(accountSid: string, sid: string): ServedProject | undefined;
}

export function createServedProjects(): ServedProjects {
  const byAccount = new Map<string, Map<string, ServedProject>>();
  return {
    add(accountSid, project) {
      const projects = byAccount.get(accountSid) ?? new Map<string, ServedProject>();
      byAccount.set(accountSid, projects);
      projects.set(project.sid, project);
    },
    list: (accountSid) => [...(byAccount.get(accountSid)?.values() ?? [])],
    get: (accountSid, sid) => byAccount.get(accountSid)?.get(sid),
  };
}
