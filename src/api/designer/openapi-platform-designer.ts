/**
 * The routes the platform's own designer calls beyond this service's (saving with POST, the
 * project header, parameter values by name, rename, upgrade, the web trigger settings), for the
 * OpenAPI document.
 */
import { z } from 'zod';
import { jsonAnswer, jsonBody, platformError, type UntaggedRoute } from '../http/openapi-kit.js';
import {
  badInput,
  invalidStructure,
  saveProject,
  sidParam,
  tooLarge,
  unknownApp,
  webTriggerInfo,
} from './openapi-common.js';
import { designerApplication, designerParameterList } from './openapi-schemas.js';
import { parameterValuesBody, renameQuery, webTriggerBody } from './platform-routes.js';

export const platformDesignerRoutes: UntaggedRoute[] = [
  {
    method: 'post',
    path: '/projects/{sid}',
    operationId: 'saveDesignerProjectWithPost',
    summary: "Replace the saved structure: the platform designer's verb for the same save as PUT",
    ...saveProject,
  },
  {
    method: 'get',
    path: '/projects/{sid}/info',
    operationId: 'getDesignerProjectInfo',
    summary: "The saved structure's header (the platform designer's info route)",
    request: { params: sidParam },
    responses: {
      200: jsonAnswer(
        z.looseObject({ version: z.string() }).meta({ id: 'DesignerProjectHeader' }),
        'The header',
      ),
      404: unknownApp,
    },
  },
  {
    method: 'put',
    path: '/projects/{sid}/parameters',
    operationId: 'setDesignerParameterValues',
    summary:
      "Set the values of existing parameters by name (the platform designer's form; effective after a build)",
    request: { params: sidParam, body: jsonBody(parameterValuesBody) },
    responses: {
      200: jsonAnswer(designerParameterList, 'Every parameter'),
      400: badInput,
      404: platformError('No such application, or a parameter it does not have'),
      413: tooLarge,
    },
  },
  {
    method: 'put',
    path: '/projects/{sid}/rename',
    operationId: 'renameDesignerProject',
    summary: 'Rename the application and its {api_root} record',
    request: { params: sidParam, query: renameQuery },
    responses: {
      200: jsonAnswer(designerApplication, 'The renamed application'),
      400: badInput,
      404: unknownApp,
      409: platformError('The account has an application of that name (duplicate-name)'),
    },
  },
  {
    method: 'put',
    path: '/projects/{sid}/upgrade',
    operationId: 'upgradeDesignerProject',
    summary: 'Rebuild: saved structures are already in the current format',
    request: { params: sidParam },
    responses: {
      200: jsonAnswer(
        z
          .object({ sid: z.string(), projectVersion: z.string(), version: z.number().int() })
          .meta({ id: 'DesignerUpgrade' }),
        'Rebuilt',
      ),
      404: unknownApp,
      422: invalidStructure,
    },
  },
  {
    method: 'get',
    path: '/projects/{sid}/cc',
    operationId: 'getDesignerWebTrigger',
    summary: "The web trigger settings (the platform designer's cc)",
    request: { params: sidParam },
    responses: {
      200: jsonAnswer(webTriggerInfo, 'The settings'),
      404: platformError('No such application, or no settings'),
    },
  },
  {
    method: 'post',
    path: '/projects/{sid}/cc',
    operationId: 'setDesignerWebTrigger',
    summary: 'Store the web trigger settings (JSON null removes them)',
    request: { params: sidParam, body: jsonBody(webTriggerBody) },
    responses: {
      200: jsonAnswer(webTriggerInfo.nullable(), 'The stored settings, or null'),
      400: badInput,
      404: unknownApp,
      413: tooLarge,
    },
  },
];
