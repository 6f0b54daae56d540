// @sqlite-run-only: document conversions only; no database.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveRef, writeRef } from './test-fixtures.ts';
import { markdownToDocument } from './to-document.ts';
import { documentToMarkdown } from './to-markdown.ts';

/*
 * Issue 14: converting markdown to a document and back must take time linear in the input. A 20,000-row table
 * took 55 s to write, because each cell searched every fragment of the table for its own. Timings on a shared
 * machine are noisy, so these tests compare sizes, not absolute times: four times the input may take about four
 * times as long, and a quadratic step (sixteen times) fails. Each measure is the best of three runs, in CPU time
 * of this process rather than on the clock: a loaded machine (CI beside other work, stress-ng) makes the clock's
 * figures wait for a core, not the CPU's.
 */

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const best = (run: () => void) => {
  let fastest = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = cpuMs();
    run();
    fastest = Math.min(fastest, cpuMs() - started);
  }
  return fastest;
};

const inputs: [string, (n: number) => string, number][] = [
  ['a table', (n) => '| a | b | c |\n| - | - | - |\n' + Array.from({ length: n }, (_, i) => `| row ${i} **b** | [l](x${i}.md) | \`c${i}\` |`).join('\n') + '\n', 250],
  ['one long paragraph of marks and links', (n) => Array.from({ length: n }, (_, i) => `w${i} **b** _i_ [l](x.md) <kbd>k</kbd> a_b`).join(' ') + '\n', 300],
  ['a long list', (n) => Array.from({ length: n }, (_, i) => `- item ${i} with \`code\``).join('\n') + '\n', 600],
  ['many GitBook blocks', (n) => Array.from({ length: n }, (_, i) => `{% stepper %}\n{% step %}\n#### Step ${i}\n\n<figure><img src="a.png" alt="" width="100"><figcaption></figcaption></figure>\n{% endstep %}\n{% endstepper %}\n`).join('\n'), 200],
];

describe('conversions are linear in the size of the input (issue 14)', () => {
  for (const [name, make, n] of inputs) {
    test(`${name}: four times the input takes about four times as long, both ways`, () => {
      const small = make(n);
      const large = make(n * 4);
      // Warm up on both sizes, so that no measure pays for compilation.
      documentToMarkdown(markdownToDocument(small, resolveRef), writeRef);
      documentToMarkdown(markdownToDocument(large, resolveRef), writeRef);
      const smallDocument = markdownToDocument(small, resolveRef);
      const largeDocument = markdownToDocument(large, resolveRef);
      // Other processes share the machine: a measure is retried (up to three times) before it counts as a
      // failure. A quadratic step fails every attempt.
      const ratio = (large: () => unknown, small: () => unknown) => {
        let lowest = Infinity;
        for (let attempt = 0; attempt < 3 && lowest >= 10; attempt++) lowest = Math.min(lowest, best(large) / Math.max(1, best(small)));
        return lowest;
      };
      const read = ratio(() => markdownToDocument(large, resolveRef), () => markdownToDocument(small, resolveRef));
      const write = ratio(() => documentToMarkdown(largeDocument, writeRef), () => documentToMarkdown(smallDocument, writeRef));
      assert.ok(read < 10, `reading 4x the input took ${read.toFixed(1)}x as long`);
      assert.ok(write < 10, `writing 4x the input took ${write.toFixed(1)}x as long`);
    });
  }
});
