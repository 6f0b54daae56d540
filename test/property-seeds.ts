/**
 * Imported by every test process (scripts/test.mjs). Property tests (fast-check) draw a new seed on every run,
 * which finds new counterexamples locally; in CI (CI=true) they replay fixed seeds, so that a red CI means
 * the change under test broke something, not that a search happened upon an old bug. PROPERTY_SEED overrides
 * both, to replay the seed a failure printed. A counterexample found becomes a named regression test.
 */
import fc from 'fast-check';

const given = process.env.PROPERTY_SEED ?? (process.env.CI === 'true' ? '20261126' : undefined);
if (given !== undefined) {
  const seed = Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`PROPERTY_SEED must be an integer, got ${given}`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
}
