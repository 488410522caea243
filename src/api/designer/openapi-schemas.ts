/** zod schemas of what the Visual Designer service answers, as named OpenAPI components. */
import { z } from 'zod';

const KINDS = ['voice', 'sms', 'ussd'] as const;
const kind = z.enum(KINDS).describe('Application kind');

export const designerTemplate = z
  .object({
    id: z.string().describe('TL and 32 digits'),
    name: z.string(),
    description: z.string().describe('May contain HTML'),
    tags: z.array(kind).describe('The kind of application it makes'),
  })
  .meta({ id: 'DesignerTemplate' });

export const designerTemplateList = z
  .object({ results: z.array(designerTemplate) })
  .meta({ id: 'DesignerTemplateList' });

export const designerTemplateDetail = designerTemplate
  .extend({
    kind,
    tts: z.object({ voice: z.string(), language: z.string() }).describe('Text-to-speech of its prompts'),
    asr: z
      .object({ language: z.string(), inputType: z.enum(['dtmf', 'speech', 'dtmf speech']) })
      .describe('Speech recognition'),
  })
  .meta({ id: 'DesignerTemplateDetail' });

export const designerApplication = z
  .object({ name: z.string(), sid: z.string().describe('AP and 32 hex digits'), kind })
  .meta({ id: 'DesignerApplication' });

/** The platform designer's import answer: one item per multipart part. */
export const designerPlatformImport = z
  .array(
    z.union([
      z.object({ field: z.string(), name: z.string(), id: z.string().describe('The new application sid') }),
      z.object({ field: z.string(), value: z.string().describe('A plain (non-file) field, echoed') }),
    ]),
  )
  .meta({ id: 'DesignerPlatformImport' });

export const designerApplicationList = z.array(designerApplication).meta({ id: 'DesignerApplicationList' });

const designerStep = z
  .looseObject({
    kind: z.string().describe('Step kind (GET /config lists them)'),
    name: z.string().describe('step<number>'),
    label: z.string().optional(),
    title: z.string().optional(),
  })
  .describe('A step; its other fields depend on its kind (docs/designer.md)');

export const designerProject = z
  .looseObject({
    header: z.looseObject({
      projectKind: kind,
      startNodeName: z.string(),
      version: z.string().describe('Structure format version (current 1.15)'),
      owner: z.string().optional().describe('The account sid'),
    }),
    nodes: z.array(
      z.looseObject({
        name: z.string(),
        label: z.string().optional(),
        kind: kind.optional(),
        steps: z.array(designerStep),
      }),
    ),
    lastStepId: z.number().int().optional(),
    lastNodeId: z.number().int().optional(),
  })
  .meta({
    id: 'DesignerProject',
    description: "The platform's Visual Designer project structure, as saved (format 1.15)",
  });

/** What `PUT /projects/{sid}` takes: a structure in any supported format, upgraded on save. */
export const designerProjectInput = z
  .looseObject({
    header: z.looseObject({ version: z.string().optional(), projectKind: z.string().optional() }).optional(),
    nodes: z.array(z.unknown()).optional(),
  })
  .meta({
    id: 'DesignerProjectInput',
    description: 'A project structure in any supported format version (GET /config lists them)',
  });

export const designerBuild = z
  .object({
    sid: z.string(),
    version: z.number().int().min(1).describe('Build number: 1 at creation, one more per build'),
    dateBuilt: z.iso.datetime(),
    diagnostics: z.array(
      z.object({
        code: z.string().describe('e.g. designer.unreachable-module'),
        severity: z.enum(['error', 'warning']),
        path: z.string(),
        message: z.string(),
      }),
    ),
  })
  .meta({ id: 'DesignerBuild' });

export const designerParameter = z
  .object({ name: z.string(), description: z.string(), value: z.string().optional() })
  .meta({ id: 'DesignerParameter' });

export const designerParameterList = z
  .object({ parameters: z.array(designerParameter) })
  .meta({ id: 'DesignerParameterList' });

export const designerSettings = z
  .object({ logging: z.boolean(), loggingRCML: z.boolean(), loggingES: z.boolean() })
  .meta({ id: 'DesignerSettings' });

export const designerUpload = z
  .union([
    z.object({
      result: z.array(
        z.object({ size: z.number().int().min(0), name: z.string().describe('The stored file name') }),
      ),
    }),
    z
      .array(
        z.union([
          z.object({ fieldName: z.string(), name: z.string() }),
          z.object({ fieldName: z.string(), value: z.string() }),
        ]),
      )
      .describe("A multipart upload: one item per part, the platform designer's shape"),
  ])
  .meta({ id: 'DesignerUpload' });

export const designerMediaList = z
  .array(z.object({ filename: z.string() }))
  .meta({ id: 'DesignerMediaList' });

export const designerConfig = z
  .object({
    controllerUrl: z.string(),
    mediaUrl: z.string(),
    projectVersion: z.string(),
    acceptedVersions: z.array(z.string()),
    kinds: z.array(kind),
    ussdSupport: z.boolean().describe('USSD applications can be made (the platform designer reads it)'),
    videoSupport: z.boolean().describe('Video is played (false: MP4s are stored and served, not shown)'),
    stepKinds: z.array(z.string()),
    media: z.object({ maxBytes: z.number().int(), formats: z.array(z.string()) }),
    archive: z.object({
      maxBytes: z.number().int(),
      maxUncompressedBytes: z.number().int(),
      maxEntries: z.number().int(),
    }),
    log: z.object({ maxBytes: z.number().int() }),
    externalServiceTimeoutMs: z.number().int(),
  })
  .meta({ id: 'DesignerConfig' });

/** `{<key>: <value>, deleted: true}` of a deletion, and the log's `{sid, cleared: true}`. */
export const deletedApplication = z.object({ sid: z.string(), deleted: z.literal(true) });
export const deletedParameter = z.object({ name: z.string(), deleted: z.literal(true) });
export const deletedMedia = z.object({ filename: z.string(), deleted: z.literal(true) });
export const clearedLog = z.object({ sid: z.string(), cleared: z.literal(true) });

/** A 422: the structure's every problem with its JSON path. */
export const designerStructureError = z
  .object({
    status: z.literal(422),
    code: z.literal('invalid-structure'),
    message: z.string(),
    parameter: z.string().optional(),
    problems: z.array(z.object({ path: z.string(), message: z.string() })),
  })
  .meta({ id: 'DesignerStructureError' });
