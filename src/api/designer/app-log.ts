/** Application log lines: which kinds the settings let through, and their text. */
import type { DesignerLogEntry } from '../../designer/context.js';
import { redactUrl } from '../../engine/fetcher.js';
import type { DesignerSettings } from '../../store/designer/types.js';

const TAGS: Record<DesignerLogEntry['kind'], string> = {
  target: '',
  log: '[LOG] ',
  exception: '[EXCEPTION] ',
  rcml: '[RCML] ',
  'es-request': '[ES] [REQUEST] ',
  'es-response': '[ES] [RESPONSE] ',
};

/** Whether the settings write an entry of this kind. */
export function logs(settings: DesignerSettings, kind: DesignerLogEntry['kind']): boolean {
  if (!settings.logging) return false;
  if (kind === 'rcml') return settings.loggingRCML;
  if (kind === 'es-request' || kind === 'es-response') return settings.loggingES;
  return true;
}

/**
 * `[<ISO timestamp>] [TAG] payload` (module lines carry no tag). URL passwords (an external
 * service's `user:password@`, in its request line or its failure) are shown as `***`.
 */
export function logLine(at: number, entry: DesignerLogEntry): string {
  return `[${new Date(at).toISOString()}] ${TAGS[entry.kind]}${redactUrl(entry.message)}`;
}
