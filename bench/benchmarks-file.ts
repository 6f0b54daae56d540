import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/*
 * docs/benchmarks.md is written by more than one command: `npm run bench` (bench/run.ts) writes its header and the
 * sections it measured, a bench run alone (`bench/job-start.ts`, `bench/collab.ts`) its own section. Each replaces
 * only the `## ` sections it measured, found by their titles: the others stay as they were (a run with BENCH_ONLY
 * used to leave nothing else in the file), and so do the notes written by hand under a section's last table (what
 * a figure means, what was tried), which are not the command's to drop.
 */

export interface Section {
  title: string;
  /** The section's text under its heading, as the command makes it (ending with its tables). */
  body: string;
}

/** The closing note, after every section. */
const FOOTER = 'The load generator and the server share the machine, so absolute numbers are a floor; compare rows of one\nrun, and runs on the same machine.';

interface Parsed {
  header: string;
  sections: { title: string; text: string }[];
  footer: string;
}

function parse(text: string): Parsed {
  const footerAt = text.indexOf(`\n${FOOTER.split('\n')[0]}`);
  const footer = footerAt >= 0 ? text.slice(footerAt + 1).trim() : FOOTER;
  const [header = '', ...parts] = (footerAt >= 0 ? text.slice(0, footerAt + 1) : text).split(/^## /m);
  const sections = parts.map((part) => {
    const newline = part.indexOf('\n');
    return newline < 0 ? { title: part.trim(), text: '' } : { title: part.slice(0, newline).trim(), text: part.slice(newline + 1).trim() };
  });
  return { header: header.trim(), sections, footer };
}

/** What was written by hand under a section's last table. */
function notesOf(text: string): string {
  const lines = text.split('\n');
  const lastRow = lines.map((line) => line.startsWith('|')).lastIndexOf(true);
  return lastRow < 0 ? '' : lines.slice(lastRow + 1).join('\n').trim();
}

function render({ header, sections, footer }: Parsed): string {
  return [header, ...sections.map(({ title, text }) => `## ${title}\n\n${text}`), footer].join('\n\n') + '\n';
}

function read(file: string): Parsed {
  return parse(existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n');
}

/**
 * Puts `sections` into `parsed`: a section already there is replaced in its place (its notes kept), a new one goes
 * after the one it follows in `sections`, else after the last section.
 */
function merge(parsed: Parsed, sections: Section[]): void {
  for (const [i, { title, body }] of sections.entries()) {
    const at = parsed.sections.findIndex((s) => s.title === title);
    if (at >= 0) {
      const notes = notesOf(parsed.sections[at]!.text);
      parsed.sections[at] = { title, text: notes ? `${body.trim()}\n\n${notes}` : body.trim() };
      continue;
    }
    const previous = i > 0 ? parsed.sections.findIndex((s) => s.title === sections[i - 1]!.title) : -1;
    parsed.sections.splice(previous >= 0 ? previous + 1 : parsed.sections.length, 0, { title, text: body.trim() });
  }
}

/** `npm run bench`'s report: its header (title, how, when, on what) and the sections it measured. */
export function writeReport(file: string, header: string, sections: Section[]): void {
  const parsed = read(file);
  parsed.header = header.trim();
  merge(parsed, sections);
  writeFileSync(file, render(parsed));
}

/** One section, measured alone: replaced where it is (its notes kept), or added after the last section. */
export function replaceSection(file: string, title: string, body: string): void {
  const parsed = read(file);
  merge(parsed, [{ title, body }]);
  writeFileSync(file, render(parsed));
}
