/**
 * The Visual Designer service's routes for the OpenAPI document. Query and JSON body schemas are
 * the ones the routes validate with.
 */
import { z } from 'zod';
import {
  type AreaDeclaration,
  authenticatedAnswers,
  jsonAnswer,
  jsonBody,
  platformError,
  type RouteDeclaration,
  type UntaggedRoute,
  writeAnswers,
} from '../http/openapi-kit.js';
import { importQuery } from './archive.js';
import { buildQuery } from './build.js';
import { SERVICE_PATH } from './context.js';
import {
  badInput,
  controllerAnswers,
  filenameQuery,
  invalidStructure,
  mediaParams,
  parameterParams,
  saveProject,
  sidParam,
  tooLarge,
  unknownApp,
  wav,
  wavUpload,
  zipUpload,
} from './openapi-common.js';
import { platformDesignerRoutes } from './openapi-platform-designer.js';
import {
  clearedLog,
  deletedApplication,
  deletedMedia,
  deletedParameter,
  designerApplication,
  designerApplicationList,
  designerBuild,
  designerConfig,
  designerMediaList,
  designerParameter,
  designerParameterList,
  designerPlatformImport,
  designerProject,
  designerSettings,
  designerTemplateDetail,
  designerTemplateList,
  designerUpload,
} from './openapi-schemas.js';
import { createParameterBody, updateParameterBody } from './parameters.js';
import { createProjectQuery } from './projects.js';
import { settingsBody } from './settings.js';

const TAGS = ['Visual Designer'];
const tooManyImports = platformError('The account or the service already runs as many imports as allowed');

/** A route of the service: authenticated; writes may meet a store that cannot write. */
function route(declaration: UntaggedRoute): RouteDeclaration {
  const writes = declaration.method === 'get' ? {} : writeAnswers;
  return {
    ...declaration,
    tags: TAGS,
    responses: { ...declaration.responses, ...authenticatedAnswers, ...writes },
  };
}

const targetParam = z.string().optional().describe('module[.step[.action]]; none = the start module');

const untagged: UntaggedRoute[] = [
  {
    method: 'get',
    path: '/templates',
    operationId: 'listDesignerTemplates',
    summary: 'List the template gallery',
    responses: { 200: jsonAnswer(designerTemplateList, 'The templates') },
  },
  {
    method: 'get',
    path: '/templates/{id}',
    operationId: 'getDesignerTemplate',
    summary: 'Get a template with its speech settings',
    request: { params: z.object({ id: z.string().describe('Template id (TL...)') }) },
    responses: {
      200: jsonAnswer(designerTemplateDetail, 'The template'),
      404: platformError('No such template'),
    },
  },
  {
    method: 'get',
    path: '/config',
    operationId: 'getDesignerConfig',
    summary: "The service's limits, formats and URLs",
    responses: { 200: jsonAnswer(designerConfig, 'The configuration') },
  },
  {
    method: 'get',
    path: '/projects',
    operationId: 'listDesignerProjects',
    summary: "List the account's applications",
    responses: { 200: jsonAnswer(designerApplicationList, 'The applications') },
  },
  {
    method: 'post',
    path: '/projects',
    operationId: 'createDesignerProject',
    summary:
      "Create an application (empty or from a template), built as version 1; a multipart body is the platform designer's import",
    request: {
      query: createProjectQuery.partial(),
      body: {
        required: false,
        description: 'None to create; multipart with zip file parts to import (each named after its file)',
        content: {
          'multipart/form-data': { schema: z.object({ file: z.string().meta({ format: 'binary' }) }) },
        },
      },
    },
    responses: {
      200: {
        description: 'The new application; for an import, `[{field, name, id}]` per part',
        content: {
          'application/json': { schema: z.union([designerApplication, designerPlatformImport]) },
        },
      },
      400: badInput,
      404: platformError('No such template'),
      409: platformError('The account has an application of that name (duplicate-name)'),
      413: tooLarge,
      422: invalidStructure,
      429: tooManyImports,
    },
  },
  {
    method: 'post',
    path: '/projects/import',
    operationId: 'importDesignerProject',
    summary: 'Create a built application from an exported archive',
    request: { query: importQuery, body: zipUpload },
    responses: {
      200: jsonAnswer(designerApplication, 'The new application'),
      400: platformError('Bad name, or an unsafe-archive / invalid-archive'),
      409: platformError('The account has an application of that name (duplicate-name)'),
      413: tooLarge,
      422: invalidStructure,
      429: tooManyImports,
    },
  },
  {
    method: 'get',
    path: '/projects/{sid}',
    operationId: 'getDesignerProject',
    summary: 'Get the saved structure',
    request: { params: sidParam },
    responses: { 200: jsonAnswer(designerProject, 'The saved structure'), 404: unknownApp },
  },
  {
    method: 'put',
    path: '/projects/{sid}',
    operationId: 'saveDesignerProject',
    summary: 'Replace the saved structure (takes effect after a build)',
    ...saveProject,
  },
  {
    method: 'delete',
    path: '/projects/{sid}',
    operationId: 'deleteDesignerProject',
    summary: 'Delete the application with its parameters, media, log and record',
    request: { params: sidParam },
    responses: { 200: jsonAnswer(deletedApplication, 'Deleted'), 404: unknownApp },
  },
  {
    method: 'post',
    path: '/projects/{sid}/build',
    operationId: 'buildDesignerProject',
    summary: 'Build the saved structure with the parameters of now',
    request: { params: sidParam, query: buildQuery },
    responses: {
      200: jsonAnswer(designerBuild, 'The build and what the linter found'),
      400: platformError('type is not the application kind'),
      404: unknownApp,
      422: invalidStructure,
    },
  },
  {
    method: 'get',
    path: '/projects/{sid}/archive',
    operationId: 'exportDesignerProject',
    summary: 'Export the application as a zip',
    request: { params: sidParam },
    responses: {
      200: {
        description: 'The archive',
        content: { 'application/zip': { schema: z.string().meta({ format: 'binary' }) } },
      },
      404: unknownApp,
    },
  },
  {
    method: 'get',
    path: '/projects/{sid}/parameters',
    operationId: 'listDesignerParameters',
    summary: 'List the parameters',
    request: { params: sidParam },
    responses: { 200: jsonAnswer(designerParameterList, 'The parameters'), 404: unknownApp },
  },
  {
    method: 'post',
    path: '/projects/{sid}/parameters',
    operationId: 'createDesignerParameter',
    summary: 'Add a parameter (takes effect after a build)',
    request: { params: sidParam, body: jsonBody(createParameterBody) },
    responses: {
      201: jsonAnswer(designerParameter, 'The parameter'),
      400: badInput,
      404: unknownApp,
      409: platformError('A parameter of that name exists (duplicate-name)'),
      413: tooLarge,
    },
  },
  {
    method: 'put',
    path: '/projects/{sid}/parameters/{name}',
    operationId: 'updateDesignerParameter',
    summary: "Change a parameter's description or value",
    request: { params: parameterParams, body: jsonBody(updateParameterBody) },
    responses: {
      200: jsonAnswer(designerParameter, 'The parameter'),
      400: badInput,
      404: platformError('No such application or parameter'),
      413: tooLarge,
    },
  },
  {
    method: 'delete',
    path: '/projects/{sid}/parameters/{name}',
    operationId: 'deleteDesignerParameter',
    summary: 'Remove a parameter',
    request: { params: parameterParams },
    responses: {
      200: jsonAnswer(deletedParameter, 'Deleted'),
      404: platformError('No such application or parameter'),
    },
  },
  {
    method: 'get',
    path: '/projects/{sid}/settings',
    operationId: 'getDesignerSettings',
    summary: 'Which log lines the application writes',
    request: { params: sidParam },
    responses: { 200: jsonAnswer(designerSettings, 'The settings'), 404: unknownApp },
  },
  {
    method: 'post',
    path: '/projects/{sid}/settings',
    operationId: 'updateDesignerSettings',
    summary: 'Change log settings, effective at once',
    request: { params: sidParam, body: jsonBody(settingsBody) },
    responses: {
      200: jsonAnswer(designerSettings, 'The settings'),
      400: badInput,
      404: unknownApp,
      413: tooLarge,
    },
  },
  {
    method: 'post',
    path: '/projects/{sid}/wavs',
    operationId: 'uploadDesignerMedia',
    summary: 'Upload a WAV file',
    request: {
      params: sidParam,
      query: z.object({ filename: z.string().optional().describe('File name; default the part name') }),
      body: wavUpload,
    },
    responses: {
      200: jsonAnswer(designerUpload, 'Stored'),
      400: platformError('Bad file name, or a multipart body without a file part'),
      404: unknownApp,
      413: tooLarge,
      415: platformError('Not a WAV (PCM, A-law, µ-law) or MP4 file as its extension says (invalid-media)'),
    },
  },
  {
    method: 'get',
    path: '/projects/{sid}/wavs',
    operationId: 'listDesignerMedia',
    summary: 'List the media files, sorted',
    request: { params: sidParam },
    responses: { 200: jsonAnswer(designerMediaList, 'The files'), 404: unknownApp },
  },
  {
    method: 'delete',
    path: '/projects/{sid}/wavs',
    operationId: 'deleteDesignerMedia',
    summary: 'Delete a media file',
    request: { params: sidParam, query: filenameQuery },
    responses: {
      200: jsonAnswer(deletedMedia, 'Deleted'),
      400: platformError('Bad file name'),
      404: platformError('No such application or file'),
    },
  },
  ...(['media', 'wavs'] as const).map(
    (segment): UntaggedRoute => ({
      method: 'get',
      path: `/projects/{sid}/${segment}/{filename}`,
      operationId: segment === 'media' ? 'playDesignerMedia' : 'getDesignerWav',
      summary: 'Play a media file (Range honoured)',
      request: {
        params: mediaParams,
        headers: z.object({ Range: z.string().optional().describe('bytes=start-end') }),
      },
      responses: {
        200: wav('The file'),
        206: wav('The requested range'),
        404: platformError('No such application or file'),
        416: {
          description: 'The range starts beyond the end',
          headers: z.object({ 'Content-Range': z.string() }),
        },
      },
    }),
  ),
  {
    method: 'get',
    path: '/apps/{sid}/log',
    operationId: 'getDesignerLog',
    summary: "The application's log lines",
    request: { params: sidParam },
    responses: {
      200: { description: 'The lines', content: { 'text/plain': { schema: z.string() } } },
      404: platformError('No such application, or its logging is off (logging-off)'),
    },
  },
  {
    method: 'delete',
    path: '/apps/{sid}/log',
    operationId: 'clearDesignerLog',
    summary: "Clear the application's log",
    request: { params: sidParam },
    responses: { 200: jsonAnswer(clearedLog, 'Cleared'), 404: unknownApp },
  },
  {
    method: 'get',
    path: '/apps/{sid}/controller',
    operationId: 'renderDesignerTarget',
    summary: 'Render a target of the built version with the query parameters',
    request: {
      params: sidParam,
      query: z.looseObject({ target: targetParam }).describe('Request parameters, e.g. CallSid, Digits'),
    },
    responses: controllerAnswers,
  },
  {
    method: 'post',
    path: '/apps/{sid}/controller',
    operationId: 'renderDesignerTargetPost',
    summary: 'Render a target with the form parameters (body parameters win)',
    request: {
      params: sidParam,
      query: z.object({ target: targetParam }),
      body: {
        content: {
          'application/x-www-form-urlencoded': {
            schema: z.record(z.string(), z.string()).describe('Request parameters, e.g. CallSid, Digits'),
          },
        },
      },
    },
    responses: controllerAnswers,
  },
  ...platformDesignerRoutes,
];
const routes = untagged.map(route);

/** The service's routes, mounted at `{base_url}/visual-designer/services`. */
export const designerOpenApi: AreaDeclaration = { mount: SERVICE_PATH, routes };
