import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compareCorpus, formatReport, roundTripPage } from '../test/corpus/compare.ts';
import { corpusRefs } from '../test/corpus/pages.ts';
import { markdownToDocument } from '../src/features/content/document/to-document.ts';
import { splitPageMarkdown } from '../src/features/content/markdown.ts';
import { applyCodeHighlights, codeHighlightsOf } from '../src/features/git-sync/code-highlights.ts';
import { htmlReadAsText } from '../src/features/git-sync/html-blocks.ts';
import { readRepository } from '../src/features/git-sync/repository.ts';
import { readSourceLayout } from '../src/features/git-sync/source-layout.ts';
import { noteKeepsMeaning, type CodeHighlight } from '../src/features/git-sync/source-markdown.ts';

/*
 * Issue 27's measure: a repository of any layout (GitBook, MkDocs, Docusaurus, plain folders) read as the import
 * reads it, and how many of its pages change in meaning. A page changes when its GitBook markdown (after the
 * layout's conversion) does not read back the same through a document, when the conversion names something it
 * could not carry over (notes that keep the meaning, source-markdown.ts noteKeepsMeaning, are listed apart and not
 * counted), or when the document does not hold the highlighted code lines the source asked for (the converters
 * hand them beside the markdown, so they are compared in the document the import writes, code-highlights.ts), or when
 * the document holds HTML as a paragraph of its text although it draws links, images, lists or headings.
 *   node --import tsx scripts/import-roundtrip.ts <dir> [--verbose] [--tree] [--project=<folder>]
 */

const args = process.argv.slice(2);
const [dir] = args.filter((a) => !a.startsWith('--'));
if (!dir) {
  console.error('usage: node --import tsx scripts/import-roundtrip.ts <dir> [--verbose] [--tree] [--project=<folder>]');
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

// `--project=docs/en`: the folder of the site's configuration, as Git Sync's project directory names it.
const project = args.find((a) => a.startsWith('--project='))?.slice('--project='.length) ?? '';
const layout = readSourceLayout(files, project);
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
const lossy = [...layout.notesByFile].filter(([file, notes]) => content.pageByFile.has(file) && notes.some((n) => !noteKeepsMeaning(n)));
const kept = [...layout.notesByFile].filter(([file, notes]) => content.pageByFile.has(file) && notes.some(noteKeepsMeaning));
const label = (note: string) => note.replace(/ \(.*\)$/, '').replace(/^(snippet|sidebar doc|MDX partial) \S+/, '$1');
const tally = (entries: typeof lossy, keep: (note: string) => boolean) => {
  const counts = new Map<string, number>();
  for (const [, notes] of entries) for (const note of new Set(notes.filter(keep).map(label))) counts.set(note, (counts.get(note) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
};

// Highlighted lines: the document the import writes must hold exactly those the source asked for.
const sameHighlights = (a: readonly CodeHighlight[], b: readonly CodeHighlight[]) =>
  a.length === b.length && a.every((h, i) => h.lines.join() === b[i]!.lines.join() && h.code.split('\n').map((l) => l.trim()).join('\n') === b[i]!.code.split('\n').map((l) => l.trim()).join('\n'));
const highlightsLost: string[] = [];
let highlightBlocks = 0;
for (const [file, expected] of layout.highlightsByFile) {
  if (!content.pageByFile.has(file)) continue;
  highlightBlocks += expected.length;
  const { body } = splitPageMarkdown(layout.files.get(file)!.toString('utf8'), file);
  const { document } = applyCodeHighlights(markdownToDocument(body, corpusRefs(file).resolve), expected);
  if (!sameHighlights(codeHighlightsOf(document), expected)) highlightsLost.push(file);
}
// HTML the document holds as a paragraph of its text although it draws links, images, lists or headings: the
// markdown read back keeps the HTML (the block's source), so only the document shows what the reader loses.
const htmlAsText = new Map<string, string[]>();
for (const file of content.pageByFile.keys()) {
  const { body } = splitPageMarkdown(layout.files.get(file)!.toString('utf8'), file);
  const found = htmlReadAsText(markdownToDocument(body, corpusRefs(file).resolve));
  if (found.length > 0) htmlAsText.set(file, found);
}
const changed = new Set([...report.changed, ...lossy.map(([file]) => file), ...highlightsLost, ...htmlAsText.keys()]);
console.log(`with a construct not carried over: ${lossy.length} pages`);
for (const [note, n] of tally(lossy, (n) => !noteKeepsMeaning(n))) console.log(`  ${note}: ${n} pages`);
console.log(`with a construct left out or rewritten, the meaning kept (named in the report, not counted): ${kept.length} pages`);
for (const [note, n] of tally(kept, noteKeepsMeaning)) console.log(`  ${note}: ${n} pages`);
console.log(`highlighted lines: ${highlightBlocks} code blocks on ${layout.highlightsByFile.size} pages; the document lacks some on ${highlightsLost.length} pages${highlightsLost.length ? ` (${highlightsLost.join(', ')})` : ''}`);
console.log(`HTML the document holds as its text, losing what it draws: ${htmlAsText.size} pages`);
if (args.includes('--verbose')) for (const [file, blocks] of htmlAsText) for (const html of blocks) console.log(`  ${file}: ${html.replace(/\s+/g, ' ').slice(0, 160)}`);
const total = content.pageByFile.size;
console.log(`changed in meaning: ${changed.size} of ${total} pages (${((100 * changed.size) / Math.max(total, 1)).toFixed(1)}%)`);
if (args.includes('--verbose')) {
  for (const file of report.changed) {
    console.log(`\n${file}`);
    for (const line of report.samples.get(file) ?? []) console.log(`  ${line}`);
  }
}
