// A reporter for Node's test runner that prints nothing while the tests run and, at the end, every failed test
// again: its file, its name under its suites, the first lines of its error, and what it noted after failing (a
// browser test: where its pages' screenshots and consoles were kept, and their errors, test/browser.ts).
// scripts/test.mjs runs it after the TAP reporter, so the end of a long log (all a CI summary may keep) says what
// failed.

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* failures(source) {
  const failed = [];
  /** Names of the tests started and not ended, per file, by nesting level. */
  const open = new Map();
  /** The failure just reported: a test's diagnostics come right after its result, at its nesting. */
  let last;
  for await (const event of source) {
    const data = event.data ?? {};
    const key = data.file ?? '';
    if (event.type === 'test:diagnostic') {
      if (last && data.file === last.file && data.nesting === last.nesting) last.notes.push(data.message);
      continue;
    }
    last = undefined;
    if (event.type === 'test:start') {
      const names = open.get(key) ?? [];
      names[data.nesting] = data.name;
      names.length = data.nesting + 1;
      open.set(key, names);
    } else if (event.type === 'test:fail') {
      const error = data.details?.error;
      // A suite fails when one of its tests does: that test is reported already.
      if (error?.failureType === 'subtestsFailed') continue;
      // A batch's suite of a file is declared in scripts/test-batch.mjs, under another key: the file is named apart.
      const path = [...(open.get(key) ?? []).slice(0, data.nesting), data.name].filter((name) => name !== undefined).join(' > ');
      const cause = error?.cause ?? error;
      const text = String(cause?.stack ?? cause?.message ?? cause ?? error?.message ?? 'failed');
      last = { file: data.file, nesting: data.nesting, path, text: text.split('\n').slice(0, 12).join('\n'), notes: [] };
      failed.push(last);
    }
  }
  if (failed.length === 0) return;
  yield `\n# ${failed.length} failed:\n`;
  for (const f of failed) {
    const notes = f.notes.slice(0, 20).map((note) => `#   ${note}\n`).join('');
    yield `\n# ✗ ${f.file ?? '(file unknown)'}\n#   ${f.path}\n${f.text.replace(/^/gm, '#     ')}\n${notes}`;
  }
}
