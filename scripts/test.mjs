#!/usr/bin/env node
// Runs every *.test.ts under src/, test/ and web/ with Node's test runner (through tsx). Extra arguments are
// passed on, e.g. `npm test -- --test-name-pattern=collections`. TEST_DATABASE_URL switches to PostgreSQL.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  let files = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files = files.concat(find(path));
    else if (name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

const args = process.argv.slice(2);
const explicit = args.filter((a) => a.endsWith('.ts'));
const files = explicit.length > 0 ? explicit : [...find('src'), ...find('test'), ...find('web')].sort();
const options = args.filter((a) => !a.endsWith('.ts'));
// TAP as it goes, then every failure again at the end (scripts/failures-reporter.mjs), unless a reporter is asked for.
const reporters = options.some((a) => a.startsWith('--test-reporter'))
  ? []
  : ['--test-reporter=tap', '--test-reporter-destination=stdout', `--test-reporter=${new URL('./failures-reporter.mjs', import.meta.url).href}`, '--test-reporter-destination=stdout'];
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...reporters, ...options, ...files], {
  stdio: 'inherit',
  // QUIRE_FROM_SOURCE: commands the tests spawn (bin/quire.js) run src/ through tsx, never a stale dist/.
  env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', QUIRE_FROM_SOURCE: process.env.QUIRE_FROM_SOURCE ?? '1' },
});
process.exit(result.status ?? 1);
