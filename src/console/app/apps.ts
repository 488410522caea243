/** Applications: the account's Visual Designer applications, and one's module graph drawn. */
import { getConsole, getConsoleText, getJson } from './api.js';
import { h, replace } from './dom.js';
import type { Page } from './page.js';

interface Project {
  sid: string;
  name: string;
  kind: string;
}

async function drawList(list: HTMLElement): Promise<void> {
  // The designer's applications, and those the server runs from a project file (--project).
  const [designed, served] = await Promise.all([
    getJson<Project[]>('/visual-designer/services/projects'),
    getConsole<Project[]>('apps'),
  ]);
  const projects = [...served, ...designed.filter((p) => !served.some((s) => s.sid === p.sid))];
  replace(
    list,
    projects.length === 0
      ? h('p', {}, 'No application yet.')
      : h(
          'ul',
          { class: 'apps' },
          ...projects.map((p) =>
            h('li', {}, h('a', { href: `#/apps/${p.sid}` }, p.name), ` (${p.kind}, ${p.sid})`),
          ),
        ),
  );
}

async function drawGraph(box: HTMLElement, sid: string): Promise<void> {
  const text = await getConsoleText(`apps/${sid}/graph`);
  // The renderer and its layout library load only here.
  const { renderMermaid } = await import('./graph.js');
  replace(
    box,
    renderMermaid(text, `Module graph of application ${sid}`),
    h('details', {}, h('summary', {}, 'Mermaid text'), h('pre', {}, text)),
  );
}

export const appsPage: Page = (view, sid) => {
  const box = h('div', { class: 'app-body' }, h('p', {}, 'Loading…'));
  const fail = (err: unknown) =>
    replace(box, h('p', { role: 'alert' }, String(err instanceof Error ? err.message : err)));
  if (sid) {
    view.append(
      h('p', {}, h('a', { href: '#/apps' }, '← All applications')),
      h('h1', { tabindex: -1 }, `Application ${sid}`),
      box,
    );
    drawGraph(box, sid).catch(fail);
  } else {
    view.append(h('h1', { tabindex: -1 }, 'Applications'), box);
    drawList(box).catch(fail);
  }
  return () => {};
};
