/**
 * Pieces the Visual Designer service's OpenAPI routes share: path parameters and answers.
 */
import { z } from 'zod';
import { jsonAnswer, platformError } from '../http/openapi-kit.js';
import { designerStructureError } from './openapi-schemas.js';

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
