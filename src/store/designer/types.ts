/** Records of the Visual Designer service (the application builder). */

/** Kind of a designer application. */
export type DesignerKind = 'voice' | 'sms' | 'ussd';

/** Which log lines an application writes (all off by default). */
export interface DesignerSettings {
  /** Module, `[LOG]` and `[EXCEPTION]` lines; the other two need it too. */
  logging: boolean;
  /** `[RCML]` lines with every rendered document. */
  loggingRCML: boolean;
  /** `[ES] [REQUEST]` / `[ES] [RESPONSE]` lines of external-service steps. */
  loggingES: boolean;
}

/** A project parameter: its value overrides every other variable source once built. */
export interface DesignerParameter {
  name: string;
  description: string;
  value?: string;
}

/** What a build made runnable: the structure and the parameters of that moment. */
export interface DesignerBuild {
  /** 1 for the first build, then one more per build. */
  version: number;
  /** Project JSON in the current format. */
  state: unknown;
  parameters: DesignerParameter[];
  dateBuilt: number;
}

/** A designer application: the saved structure, and the built one that runs. */
export interface DesignerAppRecord {
  sid: string;
  accountSid: string;
  /** Unique per account. */
  name: string;
  kind: DesignerKind;
  dateCreated: number;
  dateUpdated: number;
  /** The saved structure (project JSON in the current format). */
  state: unknown;
  settings: DesignerSettings;
  /** Absent until the first build. */
  build?: DesignerBuild;
  /**
   * The platform designer's web trigger settings (its `cc` file: lanes of start points, access
   * token, parameter scope), kept as given and exported; absent when none were set.
   */
  webTrigger?: unknown;
}

/** A media file of an application. */
export interface DesignerMedia {
  filename: string;
  bytes: Uint8Array;
}
