// A reporter for Node's test runner that prints, at the end, the test files that took longest: from the first
// event of a file to its last, so the time a file spends importing and building its servers counts too.
// scripts/test.mjs adds it when TEST_TIMINGS is set (TEST_TIMINGS=20: the twenty slowest).

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* timings(source) {
  /** @type {Map<string, { first: number, last: number, tests: number }>} */
  const files = new Map();
  for await (const event of source) {
    const file = event.data?.file;
    if (!file) continue;
    const now = performance.now();
    const seen = files.get(file);
    if (!seen) files.set(file, { first: now, last: now, tests: 0 });
    else seen.last = now;
    if (event.type === 'test:pass' || event.type === 'test:fail') {
      if (event.data.details?.type !== 'suite') files.get(file).tests += 1;
    }
  }
  const count = Number(process.env.TEST_TIMINGS) || 20;
  const slowest = [...files].sort((a, b) => b[1].last - b[1].first - (a[1].last - a[1].first)).slice(0, count);
  yield `\n# slowest ${slowest.length} test files (seconds, tests):\n`;
  for (const [file, { first, last, tests }] of slowest) {
    yield `#   ${((last - first) / 1000).toFixed(1).padStart(6)}  ${String(tests).padStart(4)}  ${file.replace(process.cwd() + '/', '')}\n`;
  }
}
