/*
 * Reads the data literal a configuration file assigns (`module.exports = {…}`, `export default {…}`,
 * `const sidebars: SidebarsConfig = {…}`) without running the file: objects, arrays, strings without
 * interpolation, numbers, booleans, null, comments and trailing commas. Anything else (a call, a variable, a
 * spread) is not data: undefined, and the caller says so. A project's code is never executed to import it.
 */

const MAX_DEPTH = 64;

export function readAssignedLiteral(source: string, names: readonly string[]): unknown {
  const text = stripComments(source);
  for (const name of names) {
    const pattern = new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*(?::[^=]+)?=\\s*`, 'g');
    for (const m of text.matchAll(pattern)) {
      const value = parseAt(text, m.index + m[0].length);
      if (value !== undefined) return value;
    }
  }
  const exported = /export\s+default\s+/.exec(text);
  return exported ? parseAt(text, exported.index + exported[0].length) : undefined;
}

function parseAt(text: string, start: number): unknown {
  const reader = { text, at: start };
  try {
    return value(reader, 0);
  } catch {
    return undefined;
  }
}

interface Reader {
  text: string;
  at: number;
}

function skip(r: Reader): void {
  while (r.at < r.text.length && /\s/.test(r.text[r.at]!)) r.at++;
}

function value(r: Reader, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new Error('too deep');
  skip(r);
  const ch = r.text[r.at];
  if (ch === '{') return object(r, depth);
  if (ch === '[') return array(r, depth);
  if (ch === '"' || ch === "'" || ch === '`') return string(r);
  const word = /^(?:-?\d+(?:\.\d+)?|true|false|null)\b/.exec(r.text.slice(r.at, r.at + 32));
  if (!word) throw new Error(`not data at ${r.at}`);
  r.at += word[0].length;
  return word[0] === 'true' ? true : word[0] === 'false' ? false : word[0] === 'null' ? null : Number(word[0]);
}

function object(r: Reader, depth: number): Record<string, unknown> {
  r.at++;
  const out: Record<string, unknown> = {};
  for (;;) {
    skip(r);
    if (r.text[r.at] === '}') {
      r.at++;
      return out;
    }
    let key: string;
    const ch = r.text[r.at];
    if (ch === '"' || ch === "'") key = string(r);
    else {
      const id = /^[A-Za-z_$][\w$]*/.exec(r.text.slice(r.at, r.at + 256));
      if (!id) throw new Error('key');
      key = id[0];
      r.at += key.length;
    }
    skip(r);
    if (r.text[r.at] !== ':') throw new Error('shorthand');
    r.at++;
    out[key] = value(r, depth + 1);
    skip(r);
    if (r.text[r.at] === ',') r.at++;
    else if (r.text[r.at] !== '}') throw new Error('object');
  }
}

function array(r: Reader, depth: number): unknown[] {
  r.at++;
  const out: unknown[] = [];
  for (;;) {
    skip(r);
    if (r.text[r.at] === ']') {
      r.at++;
      return out;
    }
    out.push(value(r, depth + 1));
    skip(r);
    if (r.text[r.at] === ',') r.at++;
    else if (r.text[r.at] !== ']') throw new Error('array');
  }
}

function string(r: Reader): string {
  const quote = r.text[r.at]!;
  let out = '';
  for (r.at++; r.at < r.text.length; r.at++) {
    const ch = r.text[r.at]!;
    if (ch === quote) {
      r.at++;
      return out;
    }
    if (quote === '`' && ch === '$' && r.text[r.at + 1] === '{') throw new Error('interpolation');
    if (ch === '\\') {
      const next = r.text[++r.at]!;
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
    } else out += ch;
  }
  throw new Error('unterminated string');
}

/** Comments blanked (strings kept as they are), so offsets stay those of the source. */
function stripComments(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '"' || ch === "'" || ch === '`') {
      const start = i;
      for (i++; i < source.length && source[i] !== ch; i++) if (source[i] === '\\') i++;
      out += source.slice(start, i + 1);
    } else if (ch === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      out += '\n';
    } else if (ch === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 1;
      out += ' ';
    } else out += ch;
  }
  return out;
}
