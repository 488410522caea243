/**
 * The console's shell: the login form, then a page per hash route (`#/calls`, `#/calls/CA...`,
 * `#/queues`, `#/apps`, `#/apps/AP...`, `#/notifications`) under a navigation bar.
 */
import { ApiFailure, login, logout, restoreSession, session, whenLoggedOut } from './api.js';
import { appsPage } from './apps.js';
import { callsPage } from './calls.js';
import { h, replace } from './dom.js';
import { connect, disconnect } from './live.js';
import { notificationsPage } from './notifications.js';
import type { Page } from './page.js';
import { queuesPage } from './queues.js';
import { timelinePage } from './timeline.js';

const root = document.getElementById('root') as HTMLElement;
let leave: () => void = () => {};

const SECTIONS: Array<{ path: string; label: string }> = [
  { path: 'calls', label: 'Calls' },
  { path: 'queues', label: 'Queues' },
  { path: 'apps', label: 'Applications' },
  { path: 'notifications', label: 'Notifications' },
];

function pageOf(route: string): { page: Page; param?: string; section: string } {
  const [section = 'calls', param] = route.replace(/^#\/?/, '').split('/');
  if (section === 'calls' && param) return { page: timelinePage, param, section };
  if (section === 'queues') return { page: queuesPage, section };
  if (section === 'apps') return { page: appsPage, param, section };
  if (section === 'notifications') return { page: notificationsPage, section };
  return { page: callsPage, section: 'calls' };
}

function showLogin(message?: string): void {
  leave();
  leave = () => {};
  window.onhashchange = null;
  disconnect();
  const error = h('p', { class: 'error', role: 'alert', id: 'login-error' }, message ?? '');
  const sid = h('input', { id: 'account-sid', name: 'accountSid', autocomplete: 'username', required: true });
  const token = h('input', {
    id: 'auth-token',
    name: 'authToken',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
  });
  const form = h(
    'form',
    { class: 'login', 'aria-describedby': 'login-error' },
    h('h1', {}, 'rcml console'),
    h('label', { for: 'account-sid' }, 'Account SID'),
    sid,
    h('label', { for: 'auth-token' }, 'Auth token'),
    token,
    h('button', { type: 'submit' }, 'Log in'),
    error,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await login(sid.value.trim(), token.value);
      token.value = '';
      start();
    } catch (err) {
      error.textContent =
        err instanceof ApiFailure && err.status === 401
          ? 'Wrong account SID or auth token.'
          : String(err instanceof Error ? err.message : err);
    }
  });
  replace(root, h('main', { class: 'login-page' }, form));
  sid.focus();
}

function show(view: HTMLElement, nav: HTMLElement): void {
  leave();
  const { page, param, section } = pageOf(location.hash);
  for (const link of nav.querySelectorAll('a')) {
    if (link.dataset.section === section) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  view.replaceChildren();
  leave = page(view, param);
  view.querySelector('h1')?.focus();
}

function start(): void {
  const view = h('main', { id: 'view', tabindex: -1 });
  const nav = h(
    'nav',
    { 'aria-label': 'Sections' },
    ...SECTIONS.map((s) => h('a', { href: `#/${s.path}`, 'data-section': s.path }, s.label)),
  );
  const out = h('button', { type: 'button', class: 'logout' }, 'Log out');
  out.addEventListener('click', async () => {
    await logout().catch(() => undefined);
    showLogin('You are logged out.');
  });
  const skip = h('a', { class: 'skip', href: '#/' }, 'Skip to content');
  skip.addEventListener('click', (e) => {
    e.preventDefault();
    view.focus();
  });
  replace(
    root,
    skip,
    h(
      'header',
      {},
      h('span', { class: 'brand' }, 'rcml console'),
      nav,
      h('span', { class: 'account' }, session().accountSid),
      out,
    ),
    view,
  );
  connect(() => showLogin('Your session ended: log in again.'));
  window.onhashchange = () => show(view, nav);
  show(view, nav);
}

whenLoggedOut(() => showLogin('Your session ended: log in again.'));
restoreSession().then(
  (s) => (s ? start() : showLogin()),
  () => showLogin(),
);
