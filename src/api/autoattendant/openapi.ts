/** The Auto Attendant routes for the OpenAPI document; body schemas are the routes' own. */
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
import type { AreaDeclaration, UntaggedRoute } from '../http/openapi-kit.js';
import { jsonAnswer } from '../http/openapi-kit.js';
import { announcementFields } from './announcement-input.js';
import { ACTING_USER_HEADER } from './roles.js';
import { createUserBody, updateUserBody } from './users.js';

const ROLE = z.enum(['BG_ADMIN', 'AA_ADMIN']);
const STATUS = z.enum(['ACTIVE', 'SUSPENDED', 'DELETED']);

export const autoAttendantUser = z
  .object({
    sid: z.string().describe('RCS and 32 hex digits'),
    accountEmail: z.string(),
    dateCreated: enterpriseTimestamp,
    dateUpdated: enterpriseTimestamp,
    name: z.string(),
    emailId: z.string(),
    role: ROLE,
    status: STATUS,
    enterpriseSid: z.string(),
    uri: z.string(),
  })
  .meta({ id: 'AutoAttendantUser' });

export const announcement = z
  .object({
    sid: z.string().describe('AN and 32 hex digits'),
    name: z.string(),
    description: z.string(),
    accountEmail: z.string(),
    dateCreated: enterpriseTimestamp,
    dateUpdated: enterpriseTimestamp,
    uri: z.string(),
    enterpriseSid: z.string(),
    type: z.enum(['say', 'play']),
    body: z.string().describe('Empty for play'),
    language: z.string().describe('A Say language code, lower case; empty for play'),
    voice: z.union([z.enum(['Man', 'Woman']), z.literal('')]).describe('Empty for play'),
    fileUri: z.string().describe("Relative to {base_url}; '' until a file is uploaded"),
  })
  .meta({ id: 'Announcement' });

const userAnswer = jsonAnswer(okEnvelope(autoAttendantUser, 'AutoAttendantUserAnswer'), 'The user');
const announcementAnswer = jsonAnswer(okEnvelope(announcement, 'AnnouncementAnswer'), 'The announcement');
const actingUser = z.object({
  [ACTING_USER_HEADER]: z
    .string()
    .optional()
    .describe('Sid or e-mail of the Auto Attendant user who acts; none: the account holder'),
});
const announcementNotFound = enterpriseError('500: no such announcement of the account');
const announcementErrors = enterpriseError(
  '467 no such enterprise, 490 no Auto Attendant system, 519 say fields missing, 520 bad type, 521 unknown language, 522 bad voice (500 on update: no such announcement)',
);

const untagged: UntaggedRoute[] = [
  {
    method: 'post',
    path: '/user',
    operationId: 'createAutoAttendantUser',
    summary: 'Create a user',
    request: { headers: actingUser, body: enterpriseBody(createUserBody) },
    responses: {
      200: userAnswer,
      400: enterpriseBadInput,
      409: enterpriseError(
        '467 no such enterprise, 484 e-mail taken, 487 unknown acting user, 499 a role rule refuses, 505 enterprise of another account',
      ),
    },
  },
  {
    method: 'get',
    path: '/user/search',
    operationId: 'searchAutoAttendantUsers',
    summary: 'Search users',
    request: {
      query: searchQuery(['name', 'email', 'dateCreated']).extend({
        name: z.string().optional(),
        emailId: z.string().optional().describe('Any part, any case'),
        role: ROLE.optional(),
        enterpriseSid: z.string().optional(),
        status: STATUS.optional(),
      }),
    },
    responses: {
      200: jsonAnswer(searchEnvelope(autoAttendantUser, 'AutoAttendantUserSearch'), 'A page of users'),
      400: enterpriseBadInput,
    },
  },
  {
    method: 'get',
    path: '/user/search/{sid}',
    operationId: 'getAutoAttendantUser',
    summary: 'Get a user',
    request: { params: sidParam },
    responses: { 200: userAnswer, 409: enterpriseError('487: no such user of the account') },
  },
  {
    method: 'put',
    path: '/user/{sid}',
    operationId: 'updateAutoAttendantUser',
    summary: "Set a user's status",
    request: { params: sidParam, headers: actingUser, body: enterpriseBody(updateUserBody) },
    responses: {
      200: userAnswer,
      400: enterpriseBadInput,
      409: enterpriseError(
        '487 no such user (or not in enterpriseSid), 467 no such enterprise, 499 a role rule refuses, 505 enterprise of another account',
      ),
    },
  },
  {
    method: 'post',
    path: '/announcement',
    operationId: 'createAnnouncement',
    summary: 'Create an announcement',
    request: { body: enterpriseBody(announcementFields) },
    responses: { 200: announcementAnswer, 400: enterpriseBadInput, 409: announcementErrors },
  },
  {
    method: 'get',
    path: '/announcement/search',
    operationId: 'searchAnnouncements',
    summary: 'Search announcements',
    request: {
      query: searchQuery(['name', 'dateCreated']).extend({
        name: z.string().optional(),
        enterpriseSid: z.string().optional(),
      }),
    },
    responses: {
      200: jsonAnswer(searchEnvelope(announcement, 'AnnouncementSearch'), 'A page of announcements'),
      400: enterpriseBadInput,
    },
  },
  {
    method: 'get',
    path: '/announcement/search/{sid}',
    operationId: 'getAnnouncement',
    summary: 'Get an announcement',
    request: { params: sidParam },
    responses: { 200: announcementAnswer, 409: announcementNotFound },
  },
  {
    method: 'put',
    path: '/announcement/{sid}',
    operationId: 'updateAnnouncement',
    summary: 'Change an announcement (fields left out keep their value)',
    request: { params: sidParam, body: enterpriseBody(announcementFields) },
    responses: { 200: announcementAnswer, 400: enterpriseBadInput, 409: announcementErrors },
  },
  {
    method: 'post',
    path: '/file/announcement/{sid}',
    operationId: 'uploadAnnouncementAudio',
    summary: "Upload an announcement's WAV",
    request: {
      params: sidParam,
      body: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({ file: z.string().meta({ format: 'binary' }).describe('A PCM WAV') }),
          },
        },
      },
    },
    responses: {
      200: announcementAnswer,
      409: enterpriseError(
        '500 no such announcement; 504 no file part, not multipart, too large or not a PCM WAV',
      ),
    },
  },
  {
    method: 'get',
    path: '/file/announcement/{sid}/{name}',
    operationId: 'getAnnouncementAudio',
    summary: "Download an announcement's WAV (no credentials needed)",
    security: [],
    request: { params: sidParam.extend({ name: z.string().describe('The file name of fileUri') }) },
    responses: {
      200: {
        description: 'The WAV',
        content: { 'audio/wav': { schema: z.string().meta({ format: 'binary' }) } },
      },
      409: announcementNotFound,
    },
  },
];
const routes = untagged.map(enterpriseRoute(['Auto Attendant']));

/** The Auto Attendant routes, mounted at `{base_url}/autoattendant`. */
export const autoAttendantOpenApi: AreaDeclaration = { mount: '/autoattendant', routes };
