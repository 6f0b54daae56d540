import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compareCorpus, formatReport, roundTripPage } from '../test/corpus/compare.ts';

/*
 * Issue 13's measure: how many pages of a GitBook Git Sync folder change in meaning.
 *   node --import tsx scripts/corpus-roundtrip.ts <dir>                 markdown -> document -> markdown in-process
 *   node --import tsx scripts/corpus-roundtrip.ts <dir> <exported-dir>  an original against an export, page by page
 * Prints the pages changed and the causes with counts; `--verbose` also prints each changed page's first
 * differences. Exits 0 either way (a measuring tool; the corpus test sets the bar).
 */

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const [dir, exported] = args.filter((a) => !a.startsWith('--'));
if (!dir) {
  console.error('usage: node --import tsx scripts/corpus-roundtrip.ts <dir> [<exported-dir>] [--verbose]');
  process.exit(2);
}

function pageFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const full = join(folder, name);
      if (name.startsWith('.') || name === 'node_modules') continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.md$/i.test(name) && name !== 'SUMMARY.md') out.push(relative(root, full));
    }
  };
  walk(root);
  return out;
}

function* pairs() {
  for (const file of pageFiles(dir!)) {
    const original = readFileSync(join(dir!, file), 'utf8');
    if (exported) {
      const other = join(exported, file);
      yield { file, original, result: existsSync(other) ? readFileSync(other, 'utf8') : '' };
    } else {
      yield { file, original, result: roundTripPage(file, original) };
    }
  }
}

const started = performance.now();
const report = compareCorpus(pairs());
console.log(formatReport(report));
if (verbose) {
  for (const file of report.changed) {
    console.log(`\n${file}`);
    for (const line of report.samples.get(file) ?? []) console.log(`  ${line}`);
  }
}
console.log(`(${Math.round(performance.now() - started)} ms)`);
