/** Voice templates of the gallery. */
import { type ModuleSpec, project, say, step, withCounters } from './build-project.js';
import type { Template } from './types.js';

const menu = (prompt: string, mappings: Array<[string, string]>, invalid: string) =>
  step('gather', {
    method: 'POST',
    gatherType: 'menu',
    inputType: 'dtmf',
    numDigits: 1,
    timeout: 5,
    finishOnKey: '',
    steps: [say(prompt)],
    menu: { mappings: mappings.map(([digits, next]) => ({ digits, next })), speechMappings: [] },
    invalidMessage: { kind: 'say', label: 'say', title: 'say', phrase: invalid },
  });

const voice = (modules: ModuleSpec[]) => withCounters(project('voice', modules));

export const ivrMenu: Template = {
  id: 'TL00000000000000000000000000000001',
  name: 'IVR menu',
  description: '<p>Greets the caller and routes <b>1</b> to sales (a dial) and <b>2</b> to support.</p>',
  tags: ['voice'],
  speech: { tts: { voice: 'woman', language: 'en-US' }, asr: { language: 'en-US', inputType: 'dtmf' } },
  project: voice([
    {
      name: 'start',
      label: 'Welcome',
      steps: [
        menu(
          'Welcome. For sales press 1. For support press 2.',
          [
            ['1', 'sales'],
            ['2', 'support'],
          ],
          'Sorry, that is not an option.',
        ),
        say('We did not get your choice. Goodbye.'),
        step('hungup'),
      ],
    },
    {
      name: 'sales',
      label: 'Sales',
      steps: [
        step('log', { message: 'caller $core_From chose sales' }),
        say('Connecting you to sales.'),
        step('dial', { dialNouns: [{ dialType: 'number', destination: '+15550100' }], timeout: 30 }),
      ],
    },
    {
      name: 'support',
      label: 'Support',
      steps: [
        step('log', { message: 'caller $core_From chose support' }),
        say('Our support team will call you back.'),
        step('hungup'),
      ],
    },
  ]),
};

export const pinConfirm: Template = {
  id: 'TL00000000000000000000000000000002',
  name: 'PIN collect and confirm',
  description: '<p>Collects a four-digit PIN (validated), reads it back and asks for confirmation.</p>',
  tags: ['voice'],
  speech: { tts: { voice: 'man', language: 'en-US' }, asr: { language: 'en-US', inputType: 'dtmf' } },
  project: voice([
    {
      name: 'start',
      label: 'Collect',
      steps: [
        step('gather', {
          method: 'POST',
          gatherType: 'collectdigits',
          inputType: 'dtmf',
          numDigits: 4,
          timeout: 10,
          finishOnKey: '#',
          steps: [say('Please enter your four digit PIN.')],
          collectdigits: { collectVariable: 'pin', next: 'confirm', scope: 'application' },
          validation: { regexPattern: '[0-9]{4}' },
          invalidMessage: { kind: 'say', label: 'say', title: 'say', phrase: 'A PIN has four digits.' },
        }),
        say('No PIN entered. Goodbye.'),
        step('hungup'),
      ],
    },
    {
      name: 'confirm',
      label: 'Confirm',
      steps: [
        menu(
          'You entered $pin. Press 1 to confirm or 2 to enter it again.',
          [
            ['1', 'accepted'],
            ['2', 'start'],
          ],
          'Please press 1 or 2.',
        ),
        step('hungup'),
      ],
    },
    {
      name: 'accepted',
      label: 'Accepted',
      steps: [
        step('log', { message: 'PIN $pin confirmed' }),
        say('Thank you, your PIN is confirmed.'),
        step('hungup'),
      ],
    },
  ]),
};

export const voicemail: Template = {
  id: 'TL00000000000000000000000000000003',
  name: 'Voicemail',
  description: '<p>Records a message after the beep and e-mails its link to the mailbox owner.</p>',
  tags: ['voice'],
  speech: { tts: { voice: 'woman', language: 'en-US' }, asr: { language: 'en-US', inputType: 'dtmf' } },
  project: voice([
    {
      name: 'start',
      label: 'Greeting',
      steps: [
        say('Please leave a message after the beep. Press the hash key when done.'),
        step('record', {
          next: 'notify',
          method: 'POST',
          maxLength: 60,
          timeout: 5,
          finishOnKey: '#',
          playBeep: true,
        }),
      ],
    },
    {
      name: 'notify',
      label: 'Notify',
      steps: [
        step('email', {
          to: 'mailbox@example.com',
          from: 'voicemail@example.com',
          subject: 'New voicemail from $core_From',
          text: 'Message of $core_RecordingDuration seconds: $core_RecordingUrl',
        }),
        step('log', { message: 'voicemail $core_RecordingUrl' }),
        say('Thank you, goodbye.'),
        step('hungup'),
      ],
    },
  ]),
};

const queueRoom = 'support-queue';
const holdMusic = 'http://com.twilio.music.classical.s3.amazonaws.com/BusyStrings.mp3';

export const queueCustomer: Template = {
  id: 'TL00000000000000000000000000000004',
  name: 'Call queue: customer',
  description:
    '<p>Puts the caller on hold in the <code>support-queue</code> room until an agent (see <i>Call queue: agent</i>) joins.</p>',
  tags: ['voice'],
  speech: { tts: { voice: 'woman', language: 'en-US' }, asr: { language: 'en-US', inputType: 'dtmf' } },
  project: voice([
    {
      name: 'start',
      label: 'Queue',
      steps: [
        say('All our agents are busy. Please hold, you will be connected to the next free agent.'),
        step('dial', {
          dialNouns: [
            {
              dialType: 'conference',
              destination: queueRoom,
              startConferenceOnEnter: false,
              endConferenceOnExit: true,
              beep: false,
              waitUrl: holdMusic,
              waitMethod: 'GET',
            },
          ],
        }),
        say('Thank you for calling.'),
      ],
    },
  ]),
};

export const queueAgent: Template = {
  id: 'TL00000000000000000000000000000005',
  name: 'Call queue: agent',
  description: '<p>Connects an agent to the callers waiting in the <code>support-queue</code> room.</p>',
  tags: ['voice'],
  speech: { tts: { voice: 'man', language: 'en-US' }, asr: { language: 'en-US', inputType: 'dtmf' } },
  project: voice([
    {
      name: 'start',
      label: 'Agent',
      steps: [
        say('Connecting you to the waiting caller.'),
        step('dial', {
          dialNouns: [
            {
              dialType: 'conference',
              destination: queueRoom,
              startConferenceOnEnter: true,
              endConferenceOnExit: true,
              beep: true,
            },
          ],
        }),
      ],
    },
  ]),
};
