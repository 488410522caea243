/** The Task Router routes for the OpenAPI document; body schemas are the routes' own. */
import { z } from 'zod';
import {
  enterpriseBadInput,
  enterpriseBody,
  enterpriseError,
  enterpriseRoute,
  enterpriseTimestamp,
  okEnvelope,
  searchEnvelope,
  searchQuery,
  sidParam,
} from '../enterprise/openapi.js';
import { type AreaDeclaration, jsonAnswer, type UntaggedRoute } from '../http/openapi-kit.js';
import { createTaskQueueBody, updateTaskQueueBody } from './taskqueues.js';
import { createWorkspaceBody, updateWorkspaceBody } from './workspaces.js';

const ORDER = z.enum(['FIFO', 'LIFO']).describe('Stored as given; FIFO applies');

export const workspace = z
  .object({
    sid: z.string().describe('WS and 32 hex digits'),
    url: z.string(),
    enterpriseSid: z.string(),
    name: z.string(),
    timeoutActivityName: z.string(),
    timeoutActivitySid: z.string(),
    defaultActivityName: z.string(),
    defaultActivitySid: z.string(),
    priortizeQueueOrder: ORDER,
    prioritizeQueueOrder: ORDER.describe('The same value, spelt right'),
    multiTaskEnabled: z.boolean(),
    activities: z.array(
      z.object({
        sid: z.string().describe('AT and 32 hex digits'),
        name: z.string(),
        available: z.boolean(),
      }),
    ),
    accountEmail: z.string(),
    dateCreated: enterpriseTimestamp,
    dateUpdated: enterpriseTimestamp,
    uri: z.string(),
  })
  .meta({ id: 'Workspace' });

export const taskQueue = z
  .object({
    sid: z.string().describe('TQ and 32 hex digits'),
    url: z.string(),
    enterpriseSid: z.string(),
    workspaceSid: z.string(),
    name: z.string(),
    assignmentActivitySid: z.string(),
    reservationActivitySid: z.string(),
    targetWorkers: z.string().describe('Worker expression (docs/enterprise.md)'),
    taskOrder: ORDER,
    maxReservedWorkers: z.number().int().min(1).max(50),
    accountEmail: z.string(),
    dateCreated: enterpriseTimestamp,
    dateUpdated: enterpriseTimestamp,
    uri: z.string(),
  })
  .meta({ id: 'TaskQueue' });

const workspaceAnswer = jsonAnswer(okEnvelope(workspace, 'WorkspaceAnswer'), 'The workspace');
const taskQueueAnswer = jsonAnswer(okEnvelope(taskQueue, 'TaskQueueAnswer'), 'The task queue');
const workspaceNotFound = enterpriseError('520: no such workspace of the account');
const taskQueueNotFound = enterpriseError('540: no such task queue of the account');
const filters = z.object({
  enterpriseSid: z.string().optional(),
  name: z.string().optional().describe('Any part of the name, any case'),
});

const untagged: UntaggedRoute[] = [
  {
    method: 'post',
    path: '/workspaces',
    operationId: 'createWorkspace',
    summary: 'Create a workspace with its Offline and Online activities',
    request: { body: enterpriseBody(createWorkspaceBody) },
    responses: {
      200: workspaceAnswer,
      400: enterpriseBadInput,
      409: enterpriseError('467 no such enterprise, 526 name taken in the enterprise'),
    },
  },
  {
    method: 'get',
    path: '/workspaces/search',
    operationId: 'searchWorkspaces',
    summary: 'Search workspaces',
    request: { query: searchQuery(['name', 'dateCreated']).extend(filters.shape) },
    responses: {
      200: jsonAnswer(searchEnvelope(workspace, 'WorkspaceSearch'), 'A page of workspaces'),
      400: enterpriseBadInput,
    },
  },
  {
    method: 'get',
    path: '/workspaces/search/{sid}',
    operationId: 'getWorkspace',
    summary: 'Get a workspace',
    request: { params: sidParam },
    responses: { 200: workspaceAnswer, 409: workspaceNotFound },
  },
  {
    method: 'put',
    path: '/workspaces/{sid}',
    operationId: 'updateWorkspace',
    summary: 'Change a workspace (an activity sid wins over a name)',
    request: { params: sidParam, body: enterpriseBody(updateWorkspaceBody) },
    responses: {
      200: workspaceAnswer,
      400: enterpriseBadInput,
      409: enterpriseError('520 no such workspace, 526 name taken, 510 no such activity'),
    },
  },
  {
    method: 'delete',
    path: '/workspaces/{sid}',
    operationId: 'deleteWorkspace',
    summary: 'Delete a workspace with its task queues and activities',
    request: { params: sidParam },
    responses: { 200: workspaceAnswer, 409: workspaceNotFound },
  },
  {
    method: 'post',
    path: '/taskqueues',
    operationId: 'createTaskQueue',
    summary: 'Create a task queue',
    request: { body: enterpriseBody(createTaskQueueBody) },
    responses: {
      200: taskQueueAnswer,
      400: enterpriseBadInput,
      409: enterpriseError(
        '520 no such workspace (or not of enterpriseSid), 546 name taken in the workspace, 510 no such activity',
      ),
    },
  },
  {
    method: 'get',
    path: '/taskqueues/search',
    operationId: 'searchTaskQueues',
    summary: 'Search task queues',
    request: {
      query: searchQuery(['name', 'dateCreated'])
        .extend(filters.shape)
        .extend({ workspaceSid: z.string().optional() }),
    },
    responses: {
      200: jsonAnswer(searchEnvelope(taskQueue, 'TaskQueueSearch'), 'A page of task queues'),
      400: enterpriseBadInput,
    },
  },
  {
    method: 'get',
    path: '/taskqueues/search/{sid}',
    operationId: 'getTaskQueue',
    summary: 'Get a task queue',
    request: { params: sidParam },
    responses: { 200: taskQueueAnswer, 409: taskQueueNotFound },
  },
  {
    method: 'put',
    path: '/taskqueues/{sid}',
    operationId: 'updateTaskQueue',
    summary: 'Change a task queue (fields left out keep their value)',
    request: { params: sidParam, body: enterpriseBody(updateTaskQueueBody) },
    responses: {
      200: taskQueueAnswer,
      400: enterpriseBadInput,
      409: enterpriseError('540 no such task queue, 546 name taken, 510 no such activity'),
    },
  },
];
const routes = untagged.map(enterpriseRoute(['Task Router']));

/** The Task Router routes, mounted at `{base_url}/taskrouter`. */
export const taskRouterOpenApi: AreaDeclaration = { mount: '/taskrouter', routes };
