import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compareCorpus, formatReport, roundTripPage } from '../test/corpus/compare.ts';
import { readRepository } from '../src/features/git-sync/repository.ts';
import { readSourceLayout } from '../src/features/git-sync/source-layout.ts';

/*
 * Issue 27's measure: a repository of any layout (GitBook, MkDocs, Docusaurus, plain folders) read as the import
 * reads it, and how many of its pages change in meaning. A page changes when its GitBook markdown (after the
 * layout's conversion) does not read back the same through a document, or when the conversion names something it
 * could not carry over.
 *   node --import tsx scripts/import-roundtrip.ts <dir> [--verbose] [--tree]
 */

const args = process.argv.slice(2);
const [dir] = args.filter((a) => !a.startsWith('--'));
if (!dir) {
  console.error('usage: node --import tsx scripts/import-roundtrip.ts <dir> [--verbose] [--tree]');
  process.exit(2);
}

const files = new Map<string, Buffer>();
const walk = (folder: string) => {
  for (const name of readdirSync(folder).sort()) {
    const full = join(folder, name);
    if (name === 'node_modules' || name === '.git') continue;
    if (statSync(full).isDirectory()) walk(full);
    else files.set(relative(dir, full), readFileSync(full));
  }
};
walk(dir);

const layout = readSourceLayout(files);
const content = readRepository(layout.files, (path) => layout.files.get(path)?.toString('utf8'), '', layout.outline);
console.log(`layout: ${layout.layout}; ${content.pageByFile.size} pages, ${content.pages.length} at the top level`);
if (args.includes('--tree')) {
  const show = (pages: typeof content.pages, depth: number) => {
    for (const page of pages) {
      console.log(`${'  '.repeat(depth)}${page.kind} ${page.title || '(its file’s title)'} ${page.file ?? ''}`);
      show(page.children, depth + 1);
    }
  };
  show(content.pages, 1);
}

const pairs = [...content.pageByFile.keys()].map((file) => {
  const original = layout.files.get(file)!.toString('utf8');
  try {
    return { file, original, result: roundTripPage(file, original) };
  } catch {
    // The import keeps front matter that is not YAML as text of the page: a change.
    return { file, original, result: '' };
  }
});
const report = compareCorpus(pairs);
console.log(`through a document: ${formatReport(report)}`);
for (const note of layout.notes) console.log(`  repository: ${note}`);
const lossy = [...layout.notesByFile].filter(([file, notes]) => content.pageByFile.has(file) && notes.some((n) => !n.startsWith('import of a component converted here')));
const changed = new Set([...report.changed, ...lossy.map(([file]) => file)]);
const counts = new Map<string, number>();
for (const [, notes] of lossy) for (const note of notes) counts.set(note.replace(/ \(.*\)$/, '').replace(/^(snippet|sidebar doc) \S+/, '$1'), (counts.get(note.replace(/ \(.*\)$/, '').replace(/^(snippet|sidebar doc) \S+/, '$1')) ?? 0) + 1);
console.log(`with a construct not carried over: ${lossy.length} pages`);
for (const [note, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`  ${note}: ${n} pages`);
const total = content.pageByFile.size;
console.log(`changed in meaning: ${changed.size} of ${total} pages (${((100 * changed.size) / Math.max(total, 1)).toFixed(1)}%)`);
if (args.includes('--verbose')) {
  for (const file of report.changed) {
    console.log(`\n${file}`);
    for (const line of report.samples.get(file) ?? []) console.log(`  ${line}`);
  }
}
