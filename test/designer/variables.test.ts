import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileProject } from '../../src/designer/index.js';
import { controllerLink, formEncode } from '../../src/designer/links.js';
import { expand, importVariables, variableNameOf } from '../../src/designer/variables.js';

const sayProject = (phrase: string) => ({
  header: { version: '1.15' },
  nodes: [{ name: 'start', steps: [{ kind: 'say', name: 'step1', phrase }] }],
});

describe('variables', () => {
  it('imports core, SIP header, sticky/module and plain parameters', () => {
    expect(variableNameOf('From')).toBe('core_From');
    expect(variableNameOf('SipHeader_X-Custom.Id')).toBe('core_x_custom_id');
    expect(variableNameOf('SipHeader_X-My-Header')).toBe('core_x_my_header');
    expect(variableNameOf('sticky_a')).toBe('sticky_a');
    expect(variableNameOf('color')).toBe('color');
  });

  it('looks up name, then module_name, then sticky_name; missing is empty', () => {
    const vars = new Map([
      ['sticky_a', 's'],
      ['module_a', 'm'],
      ['sticky_b', 'sb'],
    ]);
    expect(expand('$a-$b-$c.', vars)).toBe('m-sb-.');
    vars.set('a', 'plain');
    expect(expand('$a', vars)).toBe('plain');
  });

  it('project parameters override request parameters and bootstrap', async () => {
    const vars = importVariables({ x: 'boot', y: 'boot' }, { x: 'req' }, new Map([['y', 'param']]));
    expect(vars.get('x')).toBe('req');
    expect(vars.get('y')).toBe('param');
    const app = compileProject(sayProject('$greeting $From $core_From'), {
      parameters: [{ name: 'greeting', value: 'Hi' }],
    });
    const result = await app.render('', { greeting: 'ignored', From: '+1' });
    expect(result.document.verbs).toEqual([{ verb: 'Say', text: 'Hi  +1' }]);
  });

  it('links carry sticky_ and module_ variables, form-encoded', () => {
    const vars = new Map([
      ['plain', 'x'],
      ['sticky_name', 'a b&c'],
      ['module_n', '1'],
    ]);
    expect(controllerLink('start.step1.handle', vars)).toBe(
      'controller?target=start.step1.handle&sticky_name=a+b%26c&module_n=1',
    );
  });

  it('property: formEncode round-trips through URLSearchParams', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(new URLSearchParams(`v=${formEncode(s)}`).get('v')).toBe(s);
      }),
      { numRuns: 200 },
    );
  });

  it('module variables are cleared when rendering moves to another module', async () => {
    const project = {
      header: { version: '1.15' },
      nodes: [
        {
          name: 'start',
          steps: [
            { kind: 'redirect', name: 'step1', next: 'start' },
            { kind: 'control', name: 'step2', actions: [{ name: 'A', continueTo: { target: 'other' } }] },
          ],
        },
        { name: 'other', steps: [{ kind: 'redirect', name: 'step3', next: 'other' }] },
      ],
    };
    const result = await compileProject(project).render('', { module_a: '1', sticky_b: '2' });
    expect(result.document.verbs).toEqual([
      { verb: 'Redirect', url: 'controller?target=start&module_a=1&sticky_b=2' },
      { verb: 'Redirect', url: 'controller?target=other&sticky_b=2' },
    ]);
  });
});
