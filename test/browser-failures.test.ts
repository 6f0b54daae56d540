// @sqlite-run-only: the browser harness's failure capture; no database.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { withoutChromium } from './browser.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/*
 * What a failing browser test leaves behind (test/browser.ts, scripts/failures-reporter.mjs): a test that fails on
 * purpose runs as scripts/test.mjs runs the files, in a folder of its own, and its failure must name the test and
 * its error at the end of the output, with the page's screenshot and console kept and its errors quoted.
 */

describe('a failed browser test', { skip: withoutChromium, timeout: 120_000 }, () => {
  test('keeps its page’s screenshot and console in test-results/failures, and the end of the log says where', async () => {
    const place = mkdtempSync(join(tmpdir(), 'quire-browser-failure-'));
    try {
      const run = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const args = [
          '--import',
          import.meta.resolve('tsx'),
          '--test-reporter=tap',
          '--test-reporter-destination=stdout',
          `--test-reporter=${new URL('../scripts/failures-reporter.mjs', import.meta.url).href}`,
          '--test-reporter-destination=stdout',
          join(ROOT, 'scripts', 'test-batch.mjs'),
          join(ROOT, 'test', 'fixtures', 'failing-browser-test.ts'),
        ];
        execFile(process.execPath, args, { cwd: place, timeout: 100_000 }, (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }));
      });
      assert.equal(run.code, 1, run.stdout);
      const summary = run.stdout.slice(run.stdout.lastIndexOf('# 1 failed:'));
      assert.match(summary, /# ✗ \S+failing-browser-test\.ts\n# {3}a screen that breaks > shows a heading it does not have\n/);
      assert.match(summary, /'Goodbye'/);
      assert.match(summary, /# {3}page about:blank: test-results\/failures\/\S+\.png, its console in \S+\.console\.txt/);
      assert.match(summary, /uncaught broken widget/);
      assert.match(summary, /console error the widget could not load/);

      const kept = readdirSync(join(place, 'test-results', 'failures'));
      const png = kept.find((name) => name.endsWith('.png'));
      assert.ok(png && /a-screen-that-breaks-shows-a-heading-it-does-not-have/.test(png), kept.join(', '));
      assert.equal(readFileSync(join(place, 'test-results', 'failures', png), 'latin1').slice(1, 4), 'PNG');
      const consoleText = readFileSync(join(place, 'test-results', 'failures', png.replace(/\.png$/, '.console.txt')), 'utf8');
      assert.match(consoleText, /^\[error\] the widget could not load/m);
      assert.match(consoleText, /^\[uncaught\] Error: broken widget/m);
    } finally {
      rmSync(place, { recursive: true, force: true });
    }
  });
});
