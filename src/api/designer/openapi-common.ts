/**
 * Pieces the Visual Designer service's OpenAPI routes share: path parameters, bodies and answers.
 */
import { z } from 'zod';
import { jsonAnswer, jsonBody, platformError } from '../http/openapi-kit.js';
import { designerProject, designerProjectInput, designerStructureError } from './openapi-schemas.js';

export const webTriggerInfo = z
  .looseObject({ lanes: z.array(z.unknown()).nullish(), accessToken: z.string().nullish() })
  .meta({ id: 'DesignerWebTrigger' });
export const sidParam = z.object({ sid: z.string().describe('Application sid (AP and 32 hex digits)') });
export const parameterParams = sidParam.extend({ name: z.string().describe('Parameter name') });
export const mediaParams = sidParam.extend({ filename: z.string().describe('File name, ending in .wav') });
export const filenameQuery = z.object({ filename: z.string().describe('File name, ending in .wav') });

export const badInput = platformError('A query parameter or body field is missing or malformed (named)');
export const unknownApp = platformError('No such application of the account');
export const invalidStructure = jsonAnswer(
  designerStructureError,
  'The structure is invalid; nothing is saved',
);
export const tooLarge = platformError('The body exceeds its limit');

/** A save of the whole structure (PUT, and the platform designer's POST): request and answers. */
export const saveProject = {
  request: { params: sidParam, body: jsonBody(designerProjectInput) },
  responses: {
    200: jsonAnswer(designerProject, 'The saved structure'),
    400: platformError('Not JSON, or header.projectKind differs from the application kind'),
    404: unknownApp,
    413: tooLarge,
    422: invalidStructure,
  },
};

/** Bodies the routes take and give: WAV files, archives, a controller's RCML. */
export const wav = (description: string) => ({
  description,
  content: { 'audio/wav': { schema: z.string().meta({ format: 'binary' }) } },
  headers: z.object({
    'Accept-Ranges': z.literal('bytes'),
    'Content-Range': z.string().optional(),
  }),
});

export const zipUpload = {
  required: true,
  description: 'The zip itself, or multipart with a `file` part',
  content: {
    'application/zip': { schema: z.string().meta({ format: 'binary' }) },
    'multipart/form-data': { schema: z.object({ file: z.string().meta({ format: 'binary' }) }) },
  },
};

export const wavUpload = {
  required: true,
  description: 'The WAV itself, or multipart with a `file` part (its name is used without `filename`)',
  content: {
    'audio/wav': { schema: z.string().meta({ format: 'binary' }) },
    'multipart/form-data': { schema: z.object({ file: z.string().meta({ format: 'binary' }) }) },
  },
};

export const controllerAnswers = {
  200: {
    description: "The built version's RCML for the target",
    content: { 'application/xml': { schema: z.string() } },
  },
  404: unknownApp,
  409: platformError('The application has no build (not-built)'),
};
