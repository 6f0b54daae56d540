import { posix } from 'node:path';
import { lineNumbers } from './source-markdown.ts';

/*
 * markdown-include-variants (FastAPI's and its sibling projects' docs): `{* ../../docs_src/app/tutorial001_py310.py
 * ln[3:6,8] hl[5] *}` shows a code file of the repository as a code block. The block shows the recommended variant
 * of the file (`tutorial001_an_py310.py`, with `Annotated`, when the repository has one), only the lines `ln` names
 * with a comment where lines are left out, and highlights the lines `hl` names, counted in the file.
 */

export const CODE_INCLUDE = /^([ \t]*)\{\*[ \t]+(\S+)((?:[ \t]+(?:ln|hl)\[[^\]\n]*\])*)[ \t]*\*\}[ \t]*$/;

const LANGUAGES: Record<string, string> = { py: 'python', js: 'javascript', ts: 'typescript', sh: 'bash', yml: 'yaml', md: 'markdown' };

export interface IncludedCode {
  /** The fence, its info string naming the language, the code, and its closing fence. */
  lines: string[];
  /** The code as the block holds it, and the lines of it to highlight (1-based). */
  code: string;
  highlighted: number[];
  /** The file shown is a variant of the one named (`_an`); the site folds the other under it. */
  variantShown: boolean;
  /** Only some lines are shown (`ln`); the site folds the whole file under them. */
  partial: boolean;
}

/** The code block of an include line, or undefined when the line is none or its file is not in the repository. */
export function includedCode(line: string, read: (path: string) => string | undefined): IncludedCode | undefined {
  const include = CODE_INCLUDE.exec(line);
  if (!include) return undefined;
  const [, indent, named, options] = include;
  // The recommended variant uses Annotated: `tutorial001_py310.py` is shown as `tutorial001_an_py310.py` when it exists.
  const annotated = /_an(?:_py\d+)?\.\w+$/.test(named!) ? undefined : named!.replace(/(_py\d+)?(\.\w+)$/, '_an$1$2');
  const annotatedText = annotated === undefined ? undefined : read(annotated);
  const text = annotatedText ?? read(named!);
  if (text === undefined) return undefined;
  const file = text.replace(/\r?\n$/, '').split(/\r?\n/);
  const extension = posix.extname(named!).slice(1).toLowerCase();
  const comment = extension === 'py' || extension === 'sh' || extension === 'yml' ? '#' : '//';
  const ranges = /\bln\[([^\]]*)\]/.exec(options!)?.[1];
  const wanted = ranges === undefined ? file.map((_, i) => i + 1) : lineNumbers(ranges.replace(/:/g, '-'), file.length);
  const marked = new Set(lineNumbers((/\bhl\[([^\]]*)\]/.exec(options!)?.[1] ?? '').replace(/:/g, '-'), file.length));
  const code: string[] = [];
  const highlighted: number[] = [];
  let previous = 0;
  for (const n of wanted) {
    if (n > previous + 1) code.push(`${comment} Code ${previous === 0 ? 'above' : 'here'} omitted 👈️`, '');
    code.push(file[n - 1]!);
    if (marked.has(n)) highlighted.push(code.length);
    previous = n;
  }
  if (previous < file.length && ranges !== undefined) code.push('', `${comment} Code below omitted 👇`);
  const fence = code.some((l) => l.includes('```')) ? '~~~' : '```';
  const language = LANGUAGES[extension] ?? extension;
  return {
    lines: [`${indent}${fence}${language}`, ...code.map((l) => (l === '' ? '' : `${indent}${l}`)), `${indent}${fence}`],
    code: code.join('\n'),
    highlighted,
    variantShown: annotatedText !== undefined,
    partial: ranges !== undefined,
  };
}
