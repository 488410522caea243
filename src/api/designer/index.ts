// Public API of the Visual Designer service.
export type { DesignerServiceOptions } from './context.js';
export { createDesignerService, type DesignerService } from './service.js';
export { TEMPLATES, type Template } from './templates/index.js';
