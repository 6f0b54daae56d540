/*
 * Rison (https://github.com/Nanonid/rison), the compact JSON for URLs in which GitBook's preview API takes a
 * visitor's claims: `(role:admin,plan:'pro tier',beta:!t,tags:!(a,b))` is
 * `{ "role": "admin", "plan": "pro tier", "beta": true, "tags": ["a", "b"] }`. Pure; bounded in length and depth.
 * A string is quoted with `'`, and `!` escapes `!` and `'`; `!t`, `!f` and `!n` are true, false and null;
 * `!(...)` is an array; an identifier (letters, digits and `-_./~`, not starting with a digit or `-`) is a string.
 */

export class RisonError extends Error {}

const MAX_LENGTH = 8192;
const MAX_DEPTH = 20;
const ID_CHAR = /[A-Za-z0-9_./~-]/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/;
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function parseRison(text: string): unknown {
  if (text.length > MAX_LENGTH) throw new RisonError(`is ${text.length} characters long; at most ${MAX_LENGTH} are allowed`);
  let at = 0;
  const fail = (what: string): never => {
    throw new RisonError(`${what} at character ${at + 1}`);
  };

  function value(depth: number): unknown {
    if (depth > MAX_DEPTH) fail(`nests deeper than ${MAX_DEPTH} levels`);
    const c = text[at];
    if (c === undefined) return fail('ends where a value was expected');
    if (c === '(') return object(depth);
    if (c === "'") return string();
    if (c === '!') {
      const next = text[at + 1];
      at += 2;
      if (next === 't') return true;
      if (next === 'f') return false;
      if (next === 'n') return null;
      if (next === '(') {
        at -= 1;
        return array(depth);
      }
      at -= 2;
      return fail(`has an unknown "!${next ?? ''}"`);
    }
    const number = NUMBER.exec(text.slice(at));
    if (number && (c === '-' || (c >= '0' && c <= '9'))) {
      at += number[0].length;
      return Number(number[0]);
    }
    return identifier();
  }

  function identifier(): string {
    const start = at;
    while (at < text.length && ID_CHAR.test(text[at]!)) at += 1;
    if (at === start) fail(`has an unexpected "${text[at]}"`);
    return text.slice(start, at);
  }

  function string(): string {
    at += 1;
    let out = '';
    for (;;) {
      const c = text[at];
      if (c === undefined) return fail('has a string without its closing quote');
      at += 1;
      if (c === "'") return out;
      if (c === '!') {
        const escaped = text[at];
        if (escaped !== '!' && escaped !== "'") fail('has a "!" that escapes neither "!" nor "\'"');
        out += escaped;
        at += 1;
      } else out += c;
    }
  }

  function object(depth: number): Record<string, unknown> {
    at += 1;
    const out: Record<string, unknown> = {};
    if (text[at] === ')') {
      at += 1;
      return out;
    }
    for (;;) {
      const key = text[at] === "'" ? string() : identifier();
      if (text[at] !== ':') fail('has a key without ":"');
      at += 1;
      const v = value(depth + 1);
      if (!RESERVED_KEYS.has(key)) out[key] = v;
      if (text[at] === ',') at += 1;
      else if (text[at] === ')') {
        at += 1;
        return out;
      } else fail('has an object without its closing ")"');
    }
  }

  function array(depth: number): unknown[] {
    at += 1;
    const out: unknown[] = [];
    if (text[at] === ')') {
      at += 1;
      return out;
    }
    for (;;) {
      out.push(value(depth + 1));
      if (text[at] === ',') at += 1;
      else if (text[at] === ')') {
        at += 1;
        return out;
      } else fail('has an array without its closing ")"');
    }
  }

  const parsed = value(0);
  if (at !== text.length) fail('has more after its value');
  return parsed;
}
