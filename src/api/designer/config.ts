/** `GET /config` and the template gallery. */
import type { Hono } from 'hono';
import { CURRENT_VERSION, stepSchemas } from '../../designer/schema.js';
import { FORMAT_VERSIONS } from '../../designer/upgrade.js';
import { notFound } from '../http/errors.js';
import { type DesignerDeps, type DesignerEnv, SERVICE_PATH } from './context.js';
import { TEMPLATES, type Template, templateById } from './templates/index.js';

const templateRep = (t: Template) => ({ id: t.id, name: t.name, description: t.description, tags: t.tags });

export function registerConfig(app: Hono<DesignerEnv>, deps: DesignerDeps): void {
  const { config } = deps;
  app.get('/config', (c) =>
    c.json({
      controllerUrl: `${config.basePath}${SERVICE_PATH}/apps/{sid}/controller`,
      mediaUrl: `${config.basePath}${SERVICE_PATH}/projects/{sid}/wavs/{filename}`,
      projectVersion: CURRENT_VERSION,
      acceptedVersions: FORMAT_VERSIONS,
      kinds: ['voice', 'sms', 'ussd'],
      // The platform designer's switches: USSD applications can be made; video is not played.
      ussdSupport: true,
      videoSupport: false,
      stepKinds: Object.keys(stepSchemas),
      media: {
        maxBytes: config.mediaMaxBytes,
        formats: [
          'audio/wav (RIFF/WAVE: linear PCM, A-law, µ-law)',
          'video/mp4 (ISO base media with a sound or video track)',
        ],
      },
      archive: {
        maxBytes: config.archiveMaxBytes,
        maxUncompressedBytes: config.archiveMaxUncompressedBytes,
        maxEntries: config.archiveMaxEntries,
      },
      log: { maxBytes: config.logMaxBytes },
      externalServiceTimeoutMs: config.esMaxTimeout,
    }),
  );

  app.get('/templates', (c) => c.json({ results: TEMPLATES.map(templateRep) }));

  app.get('/templates/:id', (c) => {
    const template = templateById(c.req.param('id'));
    if (!template) throw notFound('Template', c.req.param('id'));
    return c.json({ ...templateRep(template), kind: template.tags[0], ...template.speech });
  });
}
