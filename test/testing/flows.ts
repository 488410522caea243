import { readFileSync } from 'node:fs';
import type { ScenarioInput } from '../../src/sim/index.js';

/** A scenario file of fixtures/check as an object. */
export function fixture(name: string): ScenarioInput {
  return JSON.parse(readFileSync(new URL(`../../fixtures/check/${name}.json`, import.meta.url), 'utf8'));
}

/** A one-app, one-caller scenario: `rcml` answers every call to +15550100. */
export function oneApp(rcml: string, extra: Partial<ScenarioInput> = {}): ScenarioInput {
  return {
    until: 600,
    apps: { 'http://app.test/voice': rcml },
    numbers: { '+15550100': { voiceUrl: 'http://app.test/voice' } },
    calls: [{ at: 0, from: '+15551111', to: '+15550100' }],
    ...extra,
  };
}

/** Two customers wait in 'support', then one agent takes a customer. */
export const queueScenario: ScenarioInput = {
  until: 300,
  apps: {
    'http://q.test/customer': '<Response><Enqueue>support</Enqueue></Response>',
    'http://q.test/agent': '<Response><Dial><Queue>support</Queue></Dial></Response>',
  },
  numbers: {
    '+15550001': { voiceUrl: 'http://q.test/customer' },
    '+15550002': { voiceUrl: 'http://q.test/agent' },
  },
  parties: { '+15559001': { hangupAfter: 30 } },
  calls: [
    { at: 0, from: '+15558001', to: '+15550001' },
    { at: 5, from: '+15558002', to: '+15550001' },
    { at: 10, from: '+15559001', to: '+15550002' },
  ],
};
