/** The template gallery. */
import { smsAutoReply, ussdMenu } from './messaging.js';
import type { Template } from './types.js';
import { ivrMenu, pinConfirm, queueAgent, queueCustomer, voicemail } from './voice.js';

export { emptyProject } from './build-project.js';
export type { Template } from './types.js';

/** Every template, in gallery order. */
export const TEMPLATES: readonly Template[] = [
  ivrMenu,
  pinConfirm,
  voicemail,
  queueCustomer,
  queueAgent,
  smsAutoReply,
  ussdMenu,
];

/** The template with this id, or undefined. */
export const templateById = (id: string): Template | undefined => TEMPLATES.find((t) => t.id === id);
