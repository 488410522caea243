/**
 * The platform's error codes of the Auto Attendant and Task Router areas (listed in
 * docs/enterprise.md), each answered with HTTP 409 and the platform's message. Code 520 means two
 * things, one per area.
 */
export const ENTERPRISE_ERRORS = {
  accountCreation: { code: '499', message: 'Error in creating an account under the platform' },
  enterpriseNotFound: { code: '467', message: 'Enterprise not found' },
  userNotUnique: { code: '484', message: 'supportUser not unique' },
  otherAdminAccount: { code: '505', message: 'Platform account belongs to a different admin account' },
  userNotFound: { code: '487', message: 'Auto Attendant user Id not found' },
  autoAttendantNotFound: { code: '490', message: 'Auto Attendant System Not Found' },
  announcementNotFound: { code: '500', message: 'Announcement not found' },
  audioUpload: { code: '504', message: 'Error in uploading audio file' },
  sayParametersMissing: { code: '519', message: 'Say Required Parameters Missing' },
  announcementType: { code: '520', message: 'Announcement Type Not Found' },
  announcementLanguage: { code: '521', message: 'Announcement Language Not Found' },
  announcementVoice: { code: '522', message: 'Announcement Voice Not Found' },
  workspaceNotFound: { code: '520', message: 'Sid of passed workspace is not found' },
  workspaceNotUnique: { code: '526', message: 'Workspace not unique' },
  activityNotFound: { code: '510', message: 'Sid of passed activity is not found' },
  taskQueueNotFound: { code: '540', message: 'Sid of passed TaskQueue not found' },
  taskQueueNotUnique: { code: '546', message: 'Task Queue not unique' },
} as const;

export type EnterpriseErrorName = keyof typeof ENTERPRISE_ERRORS;
