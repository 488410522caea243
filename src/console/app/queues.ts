/** Queues: each queue of the account with its waiting callers and agents in order, kept live. */
import { getJson } from './api.js';
import { h, replace } from './dom.js';
import { listen } from './live.js';
import type { Page } from './page.js';

interface Member {
  callSid: string;
  position: number;
  waitMs: number;
  from: string | null;
}
interface Side {
  size: number;
  servedCount: number;
  averageWaitMs: number;
  members: Member[];
}
interface Queue {
  sid: string;
  name: string;
  size: number;
  maxSize: number;
  servedCount: number;
  averageWaitMs: number;
  customers: Side;
  agents: Side;
}

/**
 * A side of a queue, labelled by what its callers did: the API's `customers` are calls waiting
 * in `<Dial><Queue>`, its `agents` calls waiting in `<Enqueue>` (the platform's naming).
 */
function side(key: 'customers' | 'agents', waitingIn: string, queue: Queue, view: Side): HTMLElement {
  const id = `${queue.sid}-${key}`;
  return h(
    'section',
    { class: 'side', 'aria-labelledby': id, 'data-side': key },
    h('h3', { id }, `Waiting in ${waitingIn}: ${view.size}`, ' ', h('small', {}, `(API: ${key})`)),
    view.members.length === 0
      ? h('p', {}, 'Nobody.')
      : h(
          'ol',
          { class: 'members' },
          ...view.members.map((m) =>
            h(
              'li',
              { 'data-position': m.position },
              h('span', { class: 'position' }, `#${m.position}`),
              ' ',
              h('a', { href: `#/calls/${m.callSid}` }, m.callSid),
              m.from ? ` from ${m.from}` : '',
              ` waiting ${(m.waitMs / 1000).toFixed(0)} s`,
            ),
          ),
        ),
  );
}

export const queuesPage: Page = (view) => {
  const list = h('div', { class: 'queues', 'aria-live': 'polite' }, h('p', {}, 'Loading…'));
  view.append(
    h('h1', { tabindex: -1 }, 'Queues'),
    h(
      'p',
      { class: 'hint' },
      'A call that runs <Enqueue> waits on one side, a call that dials <Queue> on the other; ' +
        'the first of each side are connected. The platform names them agents (Enqueue) and ' +
        'customers (Dial/Queue), the names the API uses, whichever of them are your customers.',
    ),
    list,
  );
  let due: ReturnType<typeof setTimeout> | undefined;
  const draw = async () => {
    const { queues } = await getJson<{ queues: Queue[] }>('/callqueue/queues');
    replace(
      list,
      ...(queues.length === 0
        ? [h('p', {}, 'No queue yet.')]
        : queues.map((q) =>
            h(
              'article',
              { class: 'queue', 'data-queue': q.name },
              h(
                'h2',
                {},
                `${q.name} `,
                h('small', {}, `${q.size} of ${q.maxSize} waiting; ${q.servedCount} served`),
              ),
              side('customers', '<Dial><Queue>', q, q.customers),
              side('agents', '<Enqueue>', q, q.agents),
            ),
          )),
    );
  };
  const redraw = () => {
    clearTimeout(due);
    due = setTimeout(() => {
      draw().catch((err) =>
        replace(list, h('p', { role: 'alert' }, String(err instanceof Error ? err.message : err))),
      );
    }, 100);
  };
  redraw();
  const stop = listen((change) => {
    if (change.kind === 'event' && change.event.type === 'queue') redraw();
  });
  return () => {
    stop();
    clearTimeout(due);
  };
};
