import fc from 'fast-check';

// Property runs are reproducible by default (seed from RCML_SEED, else a fixed one); a deep run
// (`npm run test:deep`) explores fresh seeds, and fast-check prints the seed of any failure.
if (!process.env.RCML_DEEP) {
  fc.configureGlobal({ seed: Number(process.env.RCML_SEED ?? 20261121) });
}
