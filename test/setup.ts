import fc from 'fast-check';
import { afterEach } from 'vitest';
import { setResponseCheck } from '../src/api/openapi/declare.js';

// Property runs are reproducible by default (seed from RCML_SEED, else a fixed one); a deep run
// (`npm run test:deep`) explores fresh seeds, and fast-check prints the seed of any failure.
if (!process.env.RCML_DEEP) {
  fc.configureGlobal({ seed: Number(process.env.RCML_SEED ?? 20261121) });
}

// Every JSON answer of a declared route must match its declared schema (docs/api.md, OpenAPI).
// The checker (ajv over the document's schemas) loads on the first declared answer, so test
// files that never reach the REST app do not pay for it.
let checker: typeof import('./support/response-check.js') | undefined;
setResponseCheck(async (checked) => {
  checker ??= await import('./support/response-check.js');
  await checker.checkResponse(checked);
});
afterEach(() => {
  const found = checker?.takeMismatches() ?? [];
  if (found.length > 0) {
    throw new Error(`answers that do not conform to the OpenAPI document:\n  ${found.join('\n  ')}`);
  }
});
