import { afterEach, describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../../src/api/designer/templates/index.js';
import { lintProject } from '../../../src/designer/lint.js';
import { setupWithEngine } from './harness.js';

const byName = (name: string) => TEMPLATES.find((t) => t.name === name)?.id as string;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0)) await fn();
});

async function engineWith(template: string, name = 'app') {
  const t = await setupWithEngine();
  cleanups.push(() => t.close());
  const sid = await t.create({ name, template: byName(template) });
  await t.json(`/projects/${sid}/settings`, t.send({ logging: true, loggingRCML: true }));
  const log = async (appSid = sid) => (await t.request(`/apps/${appSid}/log`)).text();
  return { t, sid, log };
}

describe('the template gallery', () => {
  it('every template is a valid project that lints clean', () => {
    expect(TEMPLATES.map((t) => t.id)).toEqual([...new Set(TEMPLATES.map((t) => t.id))]);
    for (const template of TEMPLATES) {
      expect([template.name, lintProject(template.project).diagnostics]).toEqual([template.name, []]);
      expect(template.id).toMatch(/^TL[0-9a-f]{32}$/);
    }
  });

  it('IVR menu: pressing 1 logs the choice and dials sales', async () => {
    const { t, log } = await engineWith('IVR menu');
    const callSid = await t.call((await t.json('/projects')).body[0].sid, '+15550001', '+15559000');
    await t.advance(1);
    await t.json(`/sim/Calls/${callSid}/Digits`, t.form({ Digits: '1' }));
    await t.advance(5);
    expect(t.verbsOf(callSid)).toEqual(['Gather', 'Gather/Say', 'Say', 'Dial']);
    const text = await log();
    expect(text).toContain('[LOG] caller +15559000 chose sales');
    expect(text).toMatch(/<Number>\+15550100<\/Number>/);
  });

  it('PIN collect and confirm: a short PIN is refused, a re-entry starts over, a confirmed one is logged', async () => {
    const { t, sid, log } = await engineWith('PIN collect and confirm');
    const callSid = await t.call(sid, '+15550001', '+15559000');
    const press = async (digits: string) => {
      await t.json(`/sim/Calls/${callSid}/Digits`, t.form({ Digits: digits }));
      await t.advance(2);
    };
    await t.advance(1);
    await press('12#');
    await press('9876');
    await press('2');
    await press('4321');
    await press('1');
    await t.advance(5);
    const text = await log();
    expect(text).toContain('A PIN has four digits.');
    expect(text).toContain('You entered 9876');
    expect(text).toContain('[LOG] PIN 4321 confirmed');
    expect(text).not.toContain('PIN 9876 confirmed');
    expect(
      (await t.json(`/platform/2012-04-24/Accounts/${t.engine.accountSid}/Calls/${callSid}.json`)).body
        .status,
    ).toBe('completed');
  });

  it('Voicemail: records after the beep, then e-mails the recording and says goodbye', async () => {
    const { t, sid, log } = await engineWith('Voicemail');
    const callSid = await t.call(sid, '+15550001', '+15559000');
    await t.advance(1);
    await t.json('/sim/Calls/' + callSid + '/Speech', t.form({ Text: 'please call me back' }));
    await t.advance(70);
    expect(t.verbsOf(callSid)).toEqual(['Say', 'Record', 'Email', 'Say', 'Hangup']);
    const text = await log();
    expect(text).toMatch(/\[RCML\] [\s\S]*<Email [^>]*subject="New voicemail from \+15559000"/);
    expect(text).toMatch(
      /\[LOG\] voicemail http:\/\/vd\.test\/platform\/2012-04-24\/Accounts\/AC\w+\/Recordings\/RE\w+\.wav/,
    );
  });

  it('Call queue: the customer waits in the room until the agent joins, then both talk', async () => {
    const { t, sid: customerApp, log } = await engineWith('Call queue: customer', 'customer');
    const agentApp = await t.create({ name: 'agent', template: byName('Call queue: agent') });
    await t.json('/sim/Parties', t.send({ address: '+15558000', hangupAfter: 20 }));
    const customer = await t.call(customerApp, '+15550001', '+15559000');
    await t.advance(5);
    const agent = await t.call(agentApp, '+15550002', '+15558000');
    await t.advance(30);
    expect(t.verbsOf(customer)).toEqual(['Say', 'Dial', 'Say']);
    expect(t.verbsOf(agent)).toEqual(['Say', 'Dial']);
    expect(await log()).toMatch(
      /<Conference [^>]*startConferenceOnEnter="false"[^>]*>support-queue<\/Conference>/,
    );
    const conferenceEvents = t.events.filter((e) => e.type === 'conference');
    expect(conferenceEvents.length).toBeGreaterThan(0);
  });

  it('SMS auto-reply: answers the sender with an acknowledgement', async () => {
    const { t, sid, log } = await engineWith('SMS auto-reply');
    const callSid = await t.call(sid, '+15550001', '+15559000');
    await t.advance(2);
    expect(t.verbsOf(callSid)).toEqual(['Sms']);
    expect(await log()).toMatch(/<Sms to="\+15559000" from="\+15550001">Thanks for your message/);
  });

  it('USSD menu: the engine fetches the session document; choosing 1 shows the balance', async () => {
    const { t, sid, log } = await engineWith('USSD menu');
    const callSid = await t.call(sid, '+15550001', '+15559000');
    await t.advance(2);
    expect(t.verbsOf(callSid).length).toBeGreaterThan(0);
    expect(await log()).toMatch(/<UssdCollect[\s\S]*<UssdMessage>1 Balance<\/UssdMessage>/);
    const choice = await t.request(`/apps/${sid}/controller?target=start.step2.handle&Digits=1`);
    expect(await choice.text()).toContain('Your balance is 12.50 EUR.');
  });
});
