import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { formatHex, interpolate, parse, wcagContrast, type Color } from 'culori';

/*
 * Every text/background pair the kit and the reader draw meets WCAG AA (4.5:1 for text, 3:1 for the boundaries
 * of controls and the focus ring), in both themes. The colours are read from the stylesheets themselves: the
 * reader's foundation (its :root) and the kit's tokens, resolving var(), light-dark() and color-mix() the way a
 * browser does, so a changed hex value is checked without anyone copying it here.
 */

type Theme = 'light' | 'dark';

function rootDeclarations(css: string): Map<string, string> {
  const declarations = new Map<string, string>();
  // Only the top-level `:root { ... }` blocks: the media blocks change motion, not colour.
  for (const block of css.matchAll(/(?:^|\n):root\s*\{([^}]*)\}/g)) {
    const body = block[1]!.replace(/\/\*[\s\S]*?\*\//g, '');
    for (const declaration of body.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) declarations.set(declaration[1]!, declaration[2]!.trim());
  }
  return declarations;
}

const tokens = new Map([
  ...rootDeclarations(readFileSync(new URL('../../src/features/reader/assets/reader.css', import.meta.url), 'utf8')),
  ...rootDeclarations(readFileSync(new URL('./tokens.css', import.meta.url), 'utf8')),
]);

/** The arguments of `name(...)` at the start of `value`, split at its top-level commas. */
function functionArguments(value: string, name: string): string[] | undefined {
  if (!value.startsWith(`${name}(`) || !value.endsWith(')')) return undefined;
  const inner = value.slice(name.length + 1, -1);
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const char = inner[i];
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(inner.slice(start).trim());
  return parts;
}

/** A colour value as the browser computes it for a theme. */
function resolve(value: string, theme: Theme, seen: readonly string[] = []): Color {
  const reference = functionArguments(value, 'var');
  if (reference) {
    const name = reference[0]!;
    assert.ok(!seen.includes(name), `${name} refers to itself`);
    const declared = tokens.get(name);
    if (declared !== undefined) return resolve(declared, theme, [...seen, name]);
    assert.ok(reference[1], `${name} is declared, or has a fallback`);
    return resolve(reference[1], theme, seen);
  }
  const pair = functionArguments(value, 'light-dark');
  if (pair) return resolve(pair[theme === 'light' ? 0 : 1]!, theme, seen);
  const mix = functionArguments(value, 'color-mix');
  if (mix) {
    assert.equal(mix[0], 'in srgb', `color-mix in sRGB only: ${value}`);
    const [first, firstShare] = splitShare(mix[1]!);
    const [second] = splitShare(mix[2]!);
    const share = firstShare ?? 50;
    // color-mix(in srgb, A p%, B) is p% of A: an interpolation from A to B at (100 - p)%.
    return interpolate([resolve(first, theme, seen), resolve(second, theme, seen)], 'rgb')(1 - share / 100);
  }
  const colour = parse(value);
  assert.ok(colour, `a colour: ${value}`);
  assert.ok(colour.alpha === undefined || colour.alpha === 1, `an opaque colour where text is drawn: ${value}`);
  return colour;
}

function splitShare(argument: string): [string, number | undefined] {
  const match = /^(.*?)\s+(\d+(?:\.\d+)?)%$/.exec(argument);
  return match ? [match[1]!, Number(match[2])] : [argument, undefined];
}

function contrast(foreground: string, background: string, theme: Theme): number {
  return wcagContrast(resolve(`var(${foreground})`, theme), resolve(`var(${background})`, theme));
}

/** Text on the backgrounds it is drawn on, by the reader or the kit. */
const TEXT_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['--text', '--bg'],
  ['--text', '--bg-subtle'],
  ['--text', '--bg-muted'],
  ['--text', '--surface-raised'],
  ['--text', '--selected-bg'],
  ['--text-muted', '--bg'],
  ['--text-muted', '--bg-subtle'],
  ['--text-muted', '--bg-muted'],
  ['--text-muted', '--surface-raised'],
  ['--text-muted', '--control-bg'],
  ['--on-primary', '--primary'],
  ['--on-primary', '--primary-hover'],
  ['--on-danger', '--danger'],
  ['--on-danger', '--danger-hover'],
  ['--link', '--bg'],
  ['--link', '--bg-subtle'],
  ['--danger', '--bg'],
  ['--danger', '--danger-bg'],
  ['--danger', '--selected-bg'],
  ['--info', '--info-bg'],
  ['--warning', '--warning-bg'],
  ['--success', '--success-bg'],
  ['--bg', '--text'],
  ['--code-foreground', '--code-background'],
  ['--code-token-comment', '--code-background'],
];

/** Boundaries a person must see to find a control, and the focus ring (WCAG 1.4.11). */
const BOUNDARY_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['--control-border', '--bg'],
  ['--control-border', '--bg-subtle'],
  ['--control-border-strong', '--bg'],
  ['--focus-ring-color', '--bg'],
  ['--focus-ring-color', '--bg-subtle'],
  ['--primary', '--bg'],
];

describe('design tokens', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`every text colour on its background reads at 4.5:1 or more in the ${theme} theme`, () => {
      const failures = TEXT_PAIRS.map(([text, background]) => ({ text, background, ratio: contrast(text, background, theme) }))
        .filter(({ ratio }) => ratio < 4.5)
        .map(({ text, background, ratio }) => `${text} on ${background}: ${ratio.toFixed(2)}:1`);
      assert.deepEqual(failures, []);
    });

    test(`every control's boundary and the focus ring stand out at 3:1 or more in the ${theme} theme`, () => {
      const failures = BOUNDARY_PAIRS.map(([line, background]) => ({ line, background, ratio: contrast(line, background, theme) }))
        .filter(({ ratio }) => ratio < 3)
        .map(({ line, background, ratio }) => `${line} on ${background}: ${ratio.toFixed(2)}:1`);
      assert.deepEqual(failures, []);
    });
  }

  test('the two themes differ: each colour token the kit adds has a light and a dark value where it needs one', () => {
    for (const name of ['--control-border', '--on-danger', '--surface-raised']) {
      assert.notEqual(formatHex(resolve(`var(${name})`, 'light')), formatHex(resolve(`var(${name})`, 'dark')), name);
    }
  });

  test('the resolver computes color-mix() as a browser does', () => {
    // 50% white and 50% black in sRGB is #808080 (128 rounds from 127.5).
    assert.equal(formatHex(resolve('color-mix(in srgb, #ffffff 50%, #000000)', 'light')), '#808080');
    assert.equal(formatHex(resolve('light-dark(#111111, #eeeeee)', 'dark')), '#eeeeee');
  });

  test('motion is switched off for people who ask for reduced motion', () => {
    const css = readFileSync(new URL('./tokens.css', import.meta.url), 'utf8');
    const reduced = /@media \(prefers-reduced-motion: reduce\)\s*\{\s*:root\s*\{([^}]*)\}/.exec(css);
    assert.ok(reduced, 'tokens.css has a reduced-motion block');
    assert.match(reduced[1]!, /--duration-fast:\s*0ms/);
    assert.match(reduced[1]!, /--duration-normal:\s*0ms/);
  });
});
