import { describe, expect, it } from 'vitest';
import { type CompileOptions, compileProject } from '../../src/designer/index.js';

type Json = Record<string, unknown>;

/** A 1.15 project whose modules hold the given steps (named step1, step2, ... in order). */
function project(modules: Record<string, Json[]>): Json {
  let id = 0;
  return {
    header: { projectKind: 'voice', startNodeName: 'start', version: '1.15' },
    nodes: Object.entries(modules).map(([name, steps]) => ({
      name,
      label: name,
      steps: steps.map((s) => ({ name: `step${++id}`, ...s })),
    })),
  };
}

async function render(
  modules: Record<string, Json[]>,
  target = '',
  params: Record<string, string> = {},
  options: CompileOptions = {},
) {
  const result = await compileProject(project(modules), options).render(target, params);
  expect(result.error).toBeUndefined();
  return result;
}

/** The `<Response>` body of a rendered document, without the XML declaration and indentation. */
const body = (xml: string) =>
  xml
    .replace(/^<\?xml[^>]*>\s*/, '')
    .split('\n')
    .map((l) => l.trim())
    .join('');

describe('rendering rules', () => {
  it('attributes a step leaves unset are omitted, and action links need a next module', async () => {
    const { xml } = await render({
      start: [
        { kind: 'say', phrase: 'Hi', voice: null, language: null, loop: null },
        { kind: 'play', playType: 'remote', remote: { wavUrl: 'http://m/a.wav' }, loop: null },
        {
          kind: 'gather',
          gatherType: 'menu',
          finishOnKey: '',
          inputType: 'dtmf',
          partialResultCallback: 'http://p',
          steps: [],
          menu: { mappings: [] },
        },
        { kind: 'dial', method: 'POST', dialNouns: [{ dialType: 'number', destination: '+1' }] },
        { kind: 'record', method: 'POST', next: null },
        { kind: 'sms', text: 't', next: '' },
        { kind: 'email', text: 't' },
        { kind: 'fax', text: 't' },
        { kind: 'redirect', url: 'http://x/y' },
        { kind: 'reject' },
        { kind: 'pause' },
        { kind: 'hungup' },
      ],
    });
    // finishOnKey "" and partialResultCallback with dtmf input are left out; Dial has no
    // action (nor method) without nextModule; Record's method goes only with an action.
    expect(body(xml)).toBe(
      '<Response><Say>Hi</Say><Play>http://m/a.wav</Play>' +
        '<Gather action="controller?target=start.step3.handle" input="dtmf"/>' +
        '<Dial><Number>+1</Number></Dial><Record/><Sms>t</Sms><Email>t</Email>' +
        '<Fax>t</Fax><Redirect>http://x/y</Redirect><Reject/><Pause/><Hangup/></Response>',
    );
  });

  it('speech gathers keep partialResultCallback, language and hints as saved (no expansion)', async () => {
    const { document } = await render(
      {
        start: [
          {
            kind: 'gather',
            inputType: 'speech',
            language: 'es-ES',
            hints: 'ventas, $dept',
            partialResultCallback: 'http://p/$dept',
            partialResultCallbackMethod: 'GET',
            steps: [],
          },
        ],
      },
      '',
      { dept: 'soporte' },
    );
    expect(document.verbs).toEqual([
      {
        verb: 'Gather',
        action: 'controller?target=start.step1.handle',
        input: 'speech',
        language: 'es-ES',
        hints: 'ventas, $dept',
        partialResultCallback: 'http://p/$dept',
        partialResultCallbackMethod: 'GET',
        prompts: [],
      },
    ]);
  });

  it('core_ parameters, SipHeader_ mapping and bootstrap as the lowest source', async () => {
    const phrase = '$core_CallSid $core_Direction $core_x_tenant_id $account $plan $From';
    const { document } = await render(
      { start: [{ kind: 'say', phrase }] },
      '',
      {
        CallSid: 'CA1',
        Direction: 'inbound',
        'SipHeader_X-Tenant.Id': 'acme',
        account: 'from-request',
        From: '+1',
      },
      { bootstrap: { account: 'from-bootstrap', plan: 'gold' } },
    );
    // From becomes core_From only, so $From is empty.
    expect(document.verbs).toEqual([{ verb: 'Say', text: 'CA1 inbound acme from-request gold ' }]);
  });

  it('collect with regexPattern: the whole input must match; module scope stays in same-module links', async () => {
    const modules = {
      start: [
        {
          kind: 'gather',
          gatherType: 'collectdigits',
          steps: [{ kind: 'say', name: 'p1', phrase: 'Account?' }],
          collectdigits: { collectVariable: 'acct', next: 'start', scope: 'module' },
          validation: { regexPattern: '\\d{3}' },
          invalidMessage: { kind: 'say', name: 'p2', phrase: 'Three digits please' },
        },
      ],
    };
    const valid = await render(modules, 'start.step1.handle', { Digits: '123' });
    expect(valid.document.verbs[0]).toMatchObject({
      verb: 'Gather',
      action: 'controller?target=start.step1.handle&module_acct=123',
    });
    const invalid = await render(modules, 'start.step1.handle', { Digits: '1234' });
    expect(invalid.document.verbs).toEqual([
      { verb: 'Say', text: 'Three digits please' },
      {
        verb: 'Gather',
        action: 'controller?target=start.step1.handle',
        prompts: [{ verb: 'Say', text: 'Account?' }],
      },
    ]);
  });

  it('speech collect stores core_SpeechResult and retries with speechInvalidMessage', async () => {
    const modules = {
      start: [
        { kind: 'say', phrase: 'Before' },
        {
          kind: 'gather',
          gatherType: 'collectdigits',
          inputType: 'dtmf speech',
          steps: [],
          collectdigits: { collectVariable: 'num', next: 'done', scope: 'module' },
          collectspeech: { collectVariable: 'city', next: 'done', scope: 'application' },
          speechValidation: { regexPattern: '[A-Za-z ]+' },
          invalidMessage: { kind: 'say', name: 'm1', phrase: 'Bad digits' },
          speechInvalidMessage: { kind: 'say', name: 'm2', phrase: 'Say a city' },
        },
        { kind: 'say', phrase: 'No input' },
      ],
      done: [
        { kind: 'redirect', next: 'done', method: 'GET' },
        { kind: 'say', phrase: '$city/$core_SpeechResult' },
      ],
    };
    const ok = await render(modules, 'start.step2.handle', { SpeechResult: 'Paris' });
    expect(ok.document.verbs).toEqual([
      { verb: 'Redirect', url: 'controller?target=done&sticky_city=Paris', method: 'GET' },
      { verb: 'Say', text: 'Paris/Paris' },
    ]);
    const retry = await render(modules, 'start.step2.handle', { SpeechResult: '42' });
    expect(retry.document.verbs.map((v) => (v.verb === 'Say' ? v.text : v.verb))).toEqual([
      'Say a city',
      'Gather',
      'No input',
    ]);
  });

  it('action handlers store their results as core_* and render next', async () => {
    const modules = {
      start: [
        { kind: 'dial', nextModule: 'afterDial', dialNouns: [{ dialType: 'client', destination: 'bob' }] },
        { kind: 'record', next: 'afterRecord' },
        { kind: 'email', text: 'x', to: 'a@b.c', next: 'afterEmail' },
        { kind: 'fax', text: 'x', to: '+1', next: 'afterFax' },
      ],
      afterDial: [
        {
          kind: 'say',
          phrase:
            '$core_DialCallStatus $core_DialCallSid $core_DialCallDuration $core_DialRingDuration $core_RecordingUrl',
        },
      ],
      afterRecord: [{ kind: 'say', phrase: '$core_RecordingUrl $core_RecordingDuration $core_Digits' }],
      afterEmail: [{ kind: 'say', phrase: 'email $core_EmailStatus' }],
      afterFax: [{ kind: 'say', phrase: 'fax $core_FaxStatus' }],
    };
    const say = async (target: string, params: Record<string, string>) =>
      (await render(modules, target, params)).document.verbs;
    expect(
      await say('start.step1.actionhandler', {
        DialCallStatus: 'completed',
        DialCallSid: 'CA2',
        DialCallDuration: '30',
        DialRingDuration: '4',
        RecordingUrl: 'http://r/d.wav',
      }),
    ).toEqual([{ verb: 'Say', text: 'completed CA2 30 4 http://r/d.wav' }]);
    expect(
      await say('start.step2.actionhandler', {
        RecordingUrl: 'http://r/1.wav',
        RecordingDuration: '12',
        Digits: '#',
      }),
    ).toEqual([{ verb: 'Say', text: 'http://r/1.wav 12 #' }]);
    expect(await say('start.step3.actionhandler', { EmailStatus: 'sent' })).toEqual([
      { verb: 'Say', text: 'email sent' },
    ]);
    expect(await say('start.step4.actionhandler', { FaxStatus: 'delivered' })).toEqual([
      { verb: 'Say', text: 'fax delivered' },
    ]);
  });

  it('a link carries every sticky_ and module_ variable after the target, in order', async () => {
    const { document } = await render({ start: [{ kind: 'redirect', next: 'start' }] }, '', {
      sticky_lang: 'en US',
      other: 'x',
      module_step: 'a&b',
      target: 'ignored',
    });
    expect(document.verbs).toEqual([
      { verb: 'Redirect', url: 'controller?target=start&sticky_lang=en+US&module_step=a%26b' },
    ]);
  });
});

describe('steps whose required text expands to nothing', () => {
  it('are left out, with an exception log entry naming the step, so the document stays runnable', async () => {
    const logs: string[] = [];
    const { xml } = await render(
      {
        start: [
          {
            kind: 'dial',
            dialNouns: [
              { dialType: 'conference', destination: '$room' },
              { dialType: 'number', destination: '+15551234' },
            ],
          },
          { kind: 'dial', dialNouns: [{ dialType: 'client', destination: '$nobody' }] },
          { kind: 'redirect', url: '$nowhere' },
          { kind: 'sms', text: ' $empty ' },
          { kind: 'say', phrase: 'still here' },
        ],
      },
      '',
      {},
      { onLog: (e) => e.kind === 'exception' && logs.push(e.message) },
    );
    expect(body(xml)).toBe(
      '<Response><Dial><Number>+15551234</Number></Dial><Say>still here</Say></Response>',
    );
    expect(logs).toEqual([
      'start.step2: <Dial> has no destination; the step renders nothing',
      'start.step3: <Redirect> has an empty URL; the step renders nothing',
      'start.step4: <Sms> has an empty text; the step renders nothing',
    ]);
  });
});
