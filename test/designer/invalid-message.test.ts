import { describe, expect, it } from 'vitest';
import { compileProject, lintProject, loadProject } from '../../src/designer/index.js';

/**
 * A gather written the way SPEC ("Visual Designer records") shows it: `invalidMessage` is a
 * say step without `name`, as the editor saves it.
 */
const specProject = {
  lastStepId: 4,
  lastNodeId: 1,
  header: { projectKind: 'voice', startNodeName: 'start', version: '1.15', owner: 'admin@example.com' },
  nodes: [
    {
      name: 'start',
      label: 'Welcome',
      kind: 'voice',
      steps: [
        { kind: 'say', label: 'say', title: 'say', name: 'step1', phrase: 'Welcome' },
        {
          kind: 'gather',
          label: 'gather',
          title: 'collect',
          name: 'step2',
          method: 'GET',
          steps: [{ kind: 'say', label: 'say', title: 'say', name: 'step3', phrase: 'Press 1 for $company' }],
          invalidMessage: {
            kind: 'say',
            label: 'say',
            title: 'say',
            phrase: 'Sorry, $core_Digits is not a choice',
            iface: {},
          },
          speechInvalidMessage: {
            kind: 'say',
            label: 'say',
            title: 'say',
            phrase: 'Sorry, I did not get that',
            iface: {},
          },
          gatherType: 'menu',
          inputType: 'dtmf',
          menu: { mappings: [{ digits: '1', next: 'module1' }] },
          iface: {},
        },
      ],
    },
    {
      name: 'module1',
      label: 'Sales',
      kind: 'voice',
      steps: [{ kind: 'say', label: 'say', title: 'say', name: 'step4', phrase: 'Sales' }],
    },
  ],
};

describe('gather invalid messages as SPEC writes them (say steps without name)', () => {
  it('loads them without warnings', () => {
    const loaded = loadProject(specProject);
    expect(loaded.ok && loaded.warnings).toEqual([]);
    expect(lintProject(specProject, { knownVariables: ['company'] }).diagnostics).toEqual([]);
  });

  it('renders invalidMessage as the leading Say of the re-rendered gather', async () => {
    const app = compileProject(specProject, { parameters: { company: 'Acme' } });
    const result = await app.render('start.step2.handle', { Digits: '7' });
    expect(result.xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<Response>\n' +
        '  <Say>Sorry, 7 is not a choice</Say>\n' +
        '  <Gather action="controller?target=start.step2.handle" method="GET" input="dtmf">\n' +
        '    <Say>Press 1 for Acme</Say>\n' +
        '  </Gather>\n' +
        '</Response>',
    );
    expect((await app.render('start.step2.handle', { Digits: '1' })).document.verbs).toEqual([
      { verb: 'Say', text: 'Sales' },
    ]);
  });

  it('a speech gather uses speechInvalidMessage (and only it)', async () => {
    const speech = structuredClone(specProject);
    const gather = speech.nodes[0]?.steps[1] as Record<string, unknown>;
    gather.inputType = 'speech';
    gather.menu = { speechMappings: [{ key: 'sales', next: 'module1' }] };
    const app = compileProject(speech);
    const wrong = await app.render('start.step2.handle', { SpeechResult: 'support' });
    expect(wrong.document.verbs[0]).toEqual({ verb: 'Say', text: 'Sorry, I did not get that' });
    delete gather.speechInvalidMessage;
    const none = await compileProject(speech).render('start.step2.handle', { SpeechResult: 'support' });
    expect(none.document.verbs.map((v) => v.verb)).toEqual(['Gather']);
  });

  it('a message that cannot be said is set aside with a warning, never silently', () => {
    const broken = structuredClone(specProject);
    const gather = broken.nodes[0]?.steps[1] as Record<string, unknown>;
    gather.invalidMessage = { kind: 'say', label: 'say', title: 'say', phrase: '' };
    const loaded = loadProject(broken);
    expect(loaded.ok && loaded.warnings).toEqual([
      {
        path: 'nodes[0].steps[1].invalidMessage',
        message: 'set aside, not used (required at nodes[0].steps[1].invalidMessage.phrase)',
      },
    ]);
    expect(lintProject(broken, { knownVariables: ['company'] }).diagnostics).toEqual([
      {
        code: 'designer.set-aside',
        severity: 'warning',
        path: 'nodes[0].steps[1].invalidMessage',
        message: 'set aside, not used (required at nodes[0].steps[1].invalidMessage.phrase)',
      },
    ]);
  });
});
