/** Webhook validation for applications that the platform calls (hono, Express). */
export {
  checkWebhook,
  type SigningKeySource,
  type WebhookRequest,
  type WebhookValidationOptions,
  type WebhookVerdict,
} from './check.js';
export { type ExpressLikeRequest, type ExpressLikeResponse, expressValidateWebhooks } from './express.js';
export { validateWebhooks } from './hono.js';
