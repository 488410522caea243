// Public API of the TaskRouter expression language.
export type * from './ast.js';
export { evaluateExpression, matchesTargetWorkers } from './evaluate.js';
export { ExpressionError, parseExpression } from './parse.js';
export { printExpression } from './print.js';
