/**
 * A call's webhook requests, as a request inspector shows them: each request's method, URL and
 * kind, the parameters sent, and the answer: status, content type and its text (the RCML
 * document), capped by the server and shown as text, never as markup.
 */
import { h } from './dom.js';
import type { LiveEvent } from './live.js';

function parameters(params: Record<string, string>): HTMLElement {
  const names = Object.keys(params).sort();
  if (names.length === 0) return h('p', {}, 'No parameter (GET).');
  return h(
    'table',
    { class: 'params' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Parameter'), h('th', { scope: 'col' }, 'Value'))),
    h('tbody', {}, ...names.map((n) => h('tr', {}, h('td', {}, n), h('td', {}, params[n] ?? '')))),
  );
}

function answer(res: LiveEvent | undefined): HTMLElement[] {
  if (!res) return [h('p', {}, 'No answer yet.')];
  const status = Number(res.status);
  const line = status === 0 ? `No answer: ${String(res.error ?? 'I/O error')}` : `HTTP ${status}`;
  const type = res.contentType ? ` (${String(res.contentType)})` : '';
  const body = typeof res.body === 'string' ? res.body : undefined;
  return [
    h('p', {}, `${line}${type}`),
    body === undefined
      ? h('p', {}, 'No body.')
      : h('pre', { class: 'response-body' }, body, res.bodyTruncated ? '\n… (cut at 4,096 characters)' : ''),
  ];
}

/** The requests the engine made for call `sid`, each with what it sent and what came back. */
export function webhookList(sid: string, events: LiveEvent[]): HTMLElement {
  const responses = new Map<unknown, LiveEvent>();
  for (const e of events) if (e.type === 'response') responses.set(e.id, e);
  const requests = events.filter((e) => e.type === 'request' && e.callSid === sid);
  if (requests.length === 0) return h('p', {}, 'No webhook request known.');
  return h(
    'ol',
    { class: 'webhooks' },
    ...requests.map((e) => {
      const res = responses.get(e.id);
      const status = res ? Number(res.status) || 'error' : '…';
      return h(
        'li',
        { 'data-request': String(e.id) },
        h(
          'details',
          {},
          h('summary', {}, `${String(e.method)} ${String(e.url)} → ${status} (${String(e.kind)})`),
          h('h3', {}, 'Sent'),
          parameters((e.params ?? {}) as Record<string, string>),
          h('h3', {}, 'Answered'),
          ...answer(res),
        ),
      );
    }),
  );
}
