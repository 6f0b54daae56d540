// How much of the official API Quire serves (issue 46): the operations of the newest official client
// (@gitbook/api-latest), which of them our own /v1/openapi.json routes, and which of those answered a success that
// conformed to the official spec through the official client in the last run of every test file (`npm test` or
// `npm run test:pg` write test-results/official-operations-<database>.json).
//
//   npm run coverage:ops            the counts
//   npm run coverage:ops -- --list  and every operation not served, or served without such a test
import { existsSync, readFileSync, statSync } from 'node:fs';
import { startServer } from '../test/helpers.ts';

type Paths = Record<string, Record<string, { operationId?: string }>>;
const operationsOf = (paths: Paths) => {
  const ids = new Map<string, string>();
  for (const [path, item] of Object.entries(paths)) for (const [method, op] of Object.entries(item)) if (op?.operationId) ids.set(op.operationId, `${method.toUpperCase()} ${path}`);
  return ids;
};

const latest = operationsOf(JSON.parse(readFileSync('node_modules/@gitbook/api-latest/spec/openapi.json', 'utf8')).paths);
const version = JSON.parse(readFileSync('node_modules/@gitbook/api-latest/package.json', 'utf8')).version as string;
const server = await startServer();
const served = operationsOf((await server.api('GET', '/v1/openapi.json', { token: null })).body.paths as Paths);
await server.close();

const records = ['sqlite', 'postgres'].map((db) => `test-results/official-operations-${db}.json`).filter((file) => existsSync(file));
const tested = new Set(records.flatMap((file) => JSON.parse(readFileSync(file, 'utf8')) as string[]));
const official = [...latest.keys()];
const servedOfficial = official.filter((id) => served.has(id));
const servedTested = servedOfficial.filter((id) => tested.has(id));

console.log(`official operations (@gitbook/api ${version}): ${official.length}`);
console.log(`served (routed and in /v1/openapi.json): ${servedOfficial.length}`);
if (records.length === 0) console.log('answered through the official client: unknown (no full test run recorded: run `npm test`)');
else console.log(`served and answered a conforming success through the official client: ${servedTested.length} (${records.map((f) => `${f}, ${statSync(f).mtime.toISOString()}`).join('; ')})`);
if (process.argv.includes('--list')) {
  for (const id of official.filter((id) => !served.has(id))) console.log(`not served  ${id.padEnd(48)} ${latest.get(id)}`);
  if (records.length > 0) for (const id of servedOfficial.filter((id) => !tested.has(id))) console.log(`not tested  ${id.padEnd(48)} ${latest.get(id)}`);
}
process.exit(0);
