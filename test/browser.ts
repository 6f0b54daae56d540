import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, type TestContext } from 'node:test';
import { launched } from './chromium.ts';

/*
 * Chromium for the tests (test/chromium.ts), with what a failed test leaves for a person to look at. Tests import
 * this module; the benchmarks import test/chromium.ts, since importing node:test starts its harness in the process,
 * whose async hooks halved the server's measured throughput.
 */
export * from './chromium.ts';

// Beside the screenshots tests take (`screenshot`), under the folder the tests run in.
const FAILURES = join('test-results', 'failures');

/**
 * After a test that failed, every page still open in a browser launched here (a test closes its pages at its end,
 * which a failure skips) is kept in test-results/failures/: a screenshot, and its console and uncaught errors in a
 * text file. The page's errors, and where the files are, go to the test's diagnostics, which the failures reporter
 * prints with the failure at the end of the log (all that a CI run may keep).
 */
async function keepPagesOfFailedTest(context: TestContext & { readonly passed: boolean }): Promise<void> {
  if (context.passed || launched.size === 0) return;
  const pages = [...launched].flatMap((browser) => browser.contexts().flatMap((c) => c.pages())).filter((page) => !page.isClosed());
  if (pages.length === 0) return;
  mkdirSync(FAILURES, { recursive: true });
  const base = context.fullName.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '').slice(-150);
  for (const [i, page] of pages.entries()) {
    const name = pages.length > 1 ? `${base}-${i + 1}` : base;
    // A page that hangs (the reason the test failed, maybe) must not hold the run: the capture is bounded.
    const shot = await page.screenshot({ path: join(FAILURES, `${name}.png`), fullPage: true, timeout: 10_000 }).then(
      () => `${name}.png`,
      (error: Error) => `no screenshot (${error.message.split('\n')[0]})`,
    );
    const messages = await page.consoleMessages().catch(() => []);
    const errors = await page.pageErrors().catch(() => []);
    const lines = [
      ...messages.map((m) => `[${m.type()}] ${m.text()}${m.location().url ? `  (${m.location().url}:${m.location().lineNumber})` : ''}`),
      ...errors.map((e) => `[uncaught] ${e.stack ?? e.message}`),
    ];
    writeFileSync(join(FAILURES, `${name}.console.txt`), `${page.url()}\n\n${lines.join('\n')}\n`);
    context.diagnostic(`page ${page.url()}: test-results/failures/${shot}, its console in ${name}.console.txt`);
    const worst = [...errors.map((e) => `uncaught ${e.message}`), ...messages.filter((m) => m.type() === 'error').map((m) => `console error ${m.text()}`)];
    for (const line of worst.slice(-5)) context.diagnostic(`  ${line.split('\n')[0]!.slice(0, 300)}`);
  }
}

// At the top level of the first module that imports this one: scripts/test-batch.mjs imports it before the test
// files, so that the hook is the whole process's and runs after every test of every file of a batch.
// (`passed` is Node's since 20.12; @types/node 20 does not name it.)
afterEach((context) => keepPagesOfFailedTest(context as TestContext & { readonly passed: boolean }));
