import { parse as parseYaml } from 'yaml';
import { codeLines } from './source-markdown.ts';

/*
 * PyMdown Extensions' blocks (pymdownx.blocks: `/// note | Title` … `///`), the newer spelling of admonitions,
 * collapsible details and content tabs that MkDocs sites such as FastAPI's write, as the older spelling the MkDocs
 * converter reads (`!!! note "Title"`, `??? note "Title"`, `=== "Title"`, their content indented under them). A
 * block is a header (three or more slashes, the block's name, after a `|` its argument), YAML options indented
 * under it, its content, and a line of as many slashes; a block inside another is written with another number of
 * slashes. Blocks with no such spelling (`caption`, `html`, `define`) stay as written, and the converter names them.
 */

export const BLOCK_HEADER = /^(\/{3,})[ \t]*([\w-]+)[ \t]*(?:\|[ \t]*(.*?))?[ \t]*$/;

/** Blocks of pymdownx.blocks that are no admonition; any other name is an admonition of that type (`/// tip`). */
const NOT_ADMONITIONS = new Set(['caption', 'html', 'define', 'tab', 'details', 'admonition']);

export const TABS_STARTED_ANEW = 'tab sets started anew right after another (/// tab with new: true): joined to the one before';

/** The lines with this level's blocks written as Material's admonitions, details and tabs; blocks inside are left for their content's conversion. */
export function blocksAsMaterial(lines: readonly string[], notes: Set<string>): string[] {
  if (!lines.some((line) => line.startsWith('///'))) return [...lines];
  const inCode = codeLines(lines);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const block = inCode[i] ? null : BLOCK_HEADER.exec(line);
    const header = block ? materialHeader(block[2]!.toLowerCase(), block[3]?.trim() || undefined) : undefined;
    if (!block || !header) {
      out.push(line);
      continue;
    }
    const end = closingLine(lines, inCode, i + 1, block[1]!.length);
    let start = i + 1;
    const optionLines: string[] = [];
    while (start < end && /^(?: {4}|\t)\S/.test(lines[start]!)) optionLines.push(lines[start++]!);
    const options = blockOptions(optionLines);
    if (options === undefined) {
      // Not options after all (`    code` under the header is the content's): the block is kept as written.
      out.push(line);
      continue;
    }
    if (header.kind === 'tab' && options.new === true && out.some((l) => l.startsWith('=== '))) notes.add(TABS_STARTED_ANEW);
    out.push(header.line(options), '', ...lines.slice(start, end).map((l) => (l.trim() === '' ? '' : `    ${l}`)), '');
    i = end;
  }
  return out;
}

interface MaterialHeader {
  kind: 'admonition' | 'details' | 'tab';
  line: (options: Record<string, unknown>) => string;
}

/** The header Material writes for a block of this name and argument, or undefined for a block it has none for. */
function materialHeader(name: string, argument: string | undefined): MaterialHeader | undefined {
  if (name === 'tab') return argument === undefined ? undefined : { kind: 'tab', line: () => `=== ${quoted(argument)}` };
  if (name === 'details') {
    return {
      kind: 'details',
      line: (options) => `???${options.open === true ? '+' : ''} ${typeOf(options, 'note')}${argument === undefined ? '' : ` ${quoted(argument)}`}`,
    };
  }
  if (name === 'admonition') return { kind: 'admonition', line: (options) => `!!! ${typeOf(options, 'note')}${argument === undefined ? '' : ` ${quoted(argument)}`}` };
  if (NOT_ADMONITIONS.has(name)) return undefined;
  return { kind: 'admonition', line: () => `!!! ${name}${argument === undefined ? '' : ` ${quoted(argument)}`}` };
}

function typeOf(options: Record<string, unknown>, fallback: string): string {
  return typeof options.type === 'string' && /^[\w-]+$/.test(options.type) ? options.type.toLowerCase() : fallback;
}

/** A title in the quotes Material's header reads: double, or single when it holds a double. */
function quoted(title: string): string {
  if (!title.includes('"')) return `"${title}"`;
  return title.includes("'") ? `"${title.replace(/"/g, '“')}"` : `'${title}'`;
}

/** The line of the block's closing slashes (as many as it opened with), outside code; the end of the lines when it has none. */
function closingLine(lines: readonly string[], inCode: readonly boolean[], from: number, slashes: number): number {
  const closer = new RegExp(`^/{${slashes}}[ \\t]*$`);
  for (let i = from; i < lines.length; i++) if (!inCode[i] && closer.test(lines[i]!)) return i;
  return lines.length;
}

/** The YAML options under a header (`type: warning`, `open: True`), {} for none, undefined when they are not a mapping. */
function blockOptions(lines: readonly string[]): Record<string, unknown> | undefined {
  if (lines.length === 0) return {};
  try {
    // Python's YAML reads `True` as true, as YAML 1.1 does.
    const value = parseYaml(lines.map((l) => l.replace(/^(?: {4}|\t)/, '')).join('\n'), { version: '1.1' }) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
