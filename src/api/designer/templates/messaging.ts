/** SMS and USSD templates of the gallery. */
import { project, step, withCounters } from './build-project.js';
import type { Template } from './types.js';

export const smsAutoReply: Template = {
  id: 'TL00000000000000000000000000000006',
  name: 'SMS auto-reply',
  description: '<p>Answers every incoming message with an acknowledgement to its sender.</p>',
  tags: ['sms'],
  speech: { tts: { voice: 'woman', language: 'en-US' }, asr: { language: 'en-US', inputType: 'dtmf' } },
  project: withCounters(
    project('sms', [
      {
        name: 'start',
        label: 'Reply',
        steps: [
          step('log', { message: 'message from $core_From: $core_Body' }),
          step('sms', {
            to: '$core_From',
            from: '$core_To',
            text: 'Thanks for your message. We will get back to you shortly.',
          }),
        ],
      },
    ]),
  ),
};

export const ussdMenu: Template = {
  id: 'TL00000000000000000000000000000007',
  name: 'USSD menu',
  description: '<p>A USSD session: <b>1</b> shows the balance, <b>2</b> the last top-up.</p>',
  tags: ['ussd'],
  speech: { tts: { voice: 'woman', language: 'en-US' }, asr: { language: 'en-US', inputType: 'dtmf' } },
  project: withCounters(
    project('ussd', [
      {
        name: 'start',
        label: 'Menu',
        steps: [
          step('ussdLanguage', { language: 'en' }),
          step('ussdCollect', {
            gatherType: 'menu',
            text: '',
            messages: [{ text: 'Choose:' }, { text: '1 Balance' }, { text: '2 Last top-up' }],
            menu: {
              mappings: [
                { digits: '1', next: 'balance' },
                { digits: '2', next: 'topup' },
              ],
            },
          }),
        ],
      },
      { name: 'balance', label: 'Balance', steps: [step('ussdSay', { text: 'Your balance is 12.50 EUR.' })] },
      {
        name: 'topup',
        label: 'Top-up',
        steps: [step('ussdSay', { text: 'Last top-up: 10 EUR on 1 March.' })],
      },
    ]),
  ),
};
