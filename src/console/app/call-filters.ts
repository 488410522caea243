/** The calls list's filter form: status, direction, number, date, and search by sid. */
import { type CallFilter, DIRECTIONS, STATUSES } from './call-state.js';
import { h } from './dom.js';

/** The filter form; `changed` runs with the new filter on every edit. */
export function filterForm(changed: (f: CallFilter) => void): HTMLFormElement {
  const select = (name: string, label: string, values: string[]) =>
    h(
      'label',
      {},
      `${label} `,
      h(
        'select',
        { name },
        h('option', { value: '' }, 'any'),
        ...values.map((v) => h('option', { value: v }, v)),
      ),
    );
  const input = (name: string, label: string, type: string, placeholder = '') =>
    h('label', {}, `${label} `, h('input', { name, type, placeholder }));
  const form = h(
    'form',
    { class: 'call-filters', role: 'search', 'aria-label': 'Filter calls' },
    input('sid', 'Call sid', 'search', 'CA…'),
    select('status', 'Status', STATUSES),
    select('direction', 'Direction', DIRECTIONS),
    input('number', 'Number', 'search', '+1555…'),
    input('date', 'Date (UTC)', 'date'),
  );
  const read = (): CallFilter => {
    const data = new FormData(form);
    const field = (n: string) => String(data.get(n) ?? '');
    return {
      status: field('status'),
      direction: field('direction'),
      number: field('number'),
      date: field('date'),
      sid: field('sid'),
    };
  };
  form.addEventListener('input', () => changed(read()));
  form.addEventListener('submit', (e) => e.preventDefault());
  return form;
}
