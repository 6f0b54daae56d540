// A reporter for Node's test runner that prints nothing while the tests run and, at the end, every failed test
// again: its file, its name under its suites, and the first lines of its error. scripts/test.mjs runs it after
// the TAP reporter, so the end of a long log (all a CI summary may keep) says what failed.

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* failures(source) {
  const failed = [];
  /** Names of the tests started and not ended, per file, by nesting level. */
  const open = new Map();
  for await (const event of source) {
    const data = event.data ?? {};
    const key = data.file ?? '';
    if (event.type === 'test:start') {
      const names = open.get(key) ?? [];
      names[data.nesting] = data.name;
      names.length = data.nesting + 1;
      open.set(key, names);
    } else if (event.type === 'test:fail') {
      const error = data.details?.error;
      // A suite fails when one of its tests does: that test is reported already.
      if (error?.failureType === 'subtestsFailed') continue;
      const path = [...(open.get(key) ?? []).slice(0, data.nesting), data.name].join(' > ');
      const cause = error?.cause ?? error;
      const text = String(cause?.stack ?? cause?.message ?? cause ?? error?.message ?? 'failed');
      failed.push({ file: data.file, path, text: text.split('\n').slice(0, 12).join('\n') });
    }
  }
  if (failed.length === 0) return;
  yield `\n# ${failed.length} failed:\n`;
  for (const f of failed) {
    yield `\n# ✗ ${f.file ?? '(file unknown)'}\n#   ${f.path}\n${f.text.replace(/^/gm, '#     ')}\n`;
  }
}
