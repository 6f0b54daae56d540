/*
 * A site's own MDX components that draw nothing but a `<details>` around their children (Redux's
 * `<DetailedExplanation title="…">`): read from their source, without running it, as an expandable with the
 * title the page gives or the component's default. Any other component stays as text (docusaurus-markdown.ts).
 */

export interface DetailsWrapper {
  /** The prop the summary shows (`title`), and its default; or the summary's fixed words. */
  titleProp?: string;
  defaultTitle?: string;
  fixedTitle?: string;
}

/**
 * The imports of a statement (`import { A, B as C } from './x'`, `import D from './y'`): each local name with the
 * name it has in the module (`default` for a default import), and the module path.
 */
export function importedNames(statement: string): { path: string; names: { local: string; exported: string }[] } | undefined {
  const m = /^import\s+(?:([A-Z]\w*)\s*,?\s*)?(?:\{([^}]*)\})?\s*from\s*(['"])([^'"]+)\3;?\s*$/.exec(statement.replace(/\s+/g, ' ').trim());
  if (!m || (!m[1] && !m[2])) return undefined;
  const names: { local: string; exported: string }[] = [];
  if (m[1]) names.push({ local: m[1], exported: 'default' });
  for (const part of (m[2] ?? '').split(',')) {
    const named = /^\s*(\w+)(?:\s+as\s+(\w+))?\s*$/.exec(part);
    if (named) names.push({ local: named[2] ?? named[1]!, exported: named[1]! });
  }
  return { path: m[4]!, names };
}

/** The files a component import may name: the path as written, or with a script extension, or its folder's index. */
export function componentPaths(path: string): string[] {
  if (/\.(?:jsx?|tsx?|mjs)$/.test(path)) return [path];
  return ['.jsx', '.js', '.tsx', '.ts', '/index.jsx', '/index.js', '/index.tsx', '/index.ts'].map((ending) => `${path}${ending}`);
}

/** What a component's source draws, when it is a `<details>` with a summary around `{children}` and nothing else. */
export function detailsWrapper(source: string): DetailsWrapper | undefined {
  const drawn = /return\s*\(?\s*<details\b[^>]*>\s*<summary\b[^>]*>([\s\S]*?)<\/summary>\s*\{\s*(?:props\.)?children\s*\}\s*<\/details>\s*\)?/.exec(source);
  if (!drawn) return undefined;
  const words = drawn[1]!.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  const prop = /^\{\s*(?:props\.)?(\w+)\s*\}$/.exec(words);
  if (prop) {
    const fallback = new RegExp(`\\b${prop[1]}\\s*=\\s*(['"\`])([^'"\`]*)\\1`).exec(source);
    return { titleProp: prop[1]!, ...(fallback ? { defaultTitle: fallback[2]! } : {}) };
  }
  return words.includes('{') ? undefined : { fixedTitle: words };
}

/** The summary of one use of a wrapper: the prop written on the element (`title="…"`), else the default. */
export function wrapperTitle(wrapper: DetailsWrapper, attributes: string): string | undefined {
  if (wrapper.fixedTitle !== undefined) return wrapper.fixedTitle;
  const given = new RegExp(`\\b${wrapper.titleProp}=(?:"([^"]*)"|'([^']*)'|\\{\\s*(['"\`])([^'"\`]*)\\3\\s*\\})`).exec(attributes);
  return given ? (given[1] ?? given[2] ?? given[4]) : wrapper.defaultTitle;
}
