import type { ComponentChild, VNode } from 'preact';
import type { Code } from '../content/document/types.ts';
import { highlight, languageOf } from './highlight.ts';
import type { CodeToken } from './highlight.ts';
import type { RenderContext } from './render-context.ts';

/** The plain text of each line of a code block (inlines such as annotations contribute nothing). */
export function codeLines(block: Code): string[] {
  return (block.nodes ?? []).map((line) =>
    (line?.nodes ?? []).map((node) => (node?.object === 'text' ? (node.leaves ?? []).map((l) => l?.text ?? '').join('') : '')).join(''),
  );
}

/**
 * A code block: an optional title bar, the language, a copy button (shown by the script), and one
 * `<span class="line">` per line so the stylesheet can number them and mark highlighted ones.
 */
export function renderCode(block: Code, ctx: RenderContext): VNode {
  const data = block.data ?? {};
  const lines = codeLines(block);
  const language = languageOf(data.syntax);
  const code = lines.join('\n');
  const budget = ctx.options.highlighting;
  const tokens = language ? (budget ? budget.tokensOf(language, code) : highlight(language, code)) : null;
  const id = ctx.nextId('code');
  const title = typeof data.title === 'string' && data.title.trim() ? data.title.trim() : null;
  const label = title ?? (data.syntax ? `${data.syntax} code` : 'Code');
  const classes = ['code-block'];
  if (data.lineNumbers) classes.push('with-line-numbers');
  if (data.overflow === 'wrap') classes.push('wrap');
  if (data.fullWidth) classes.push('full-width');
  return (
    <figure class={classes.join(' ')}>
      <figcaption class="code-header">
        <span class="code-title">{title ?? data.syntax ?? ''}</span>
        <button type="button" class="copy-button" data-copy={id} hidden>
          Copy
        </button>
      </figcaption>
      {/* A scrollable region must be reachable by keyboard (axe: scrollable-region-focusable). */}
      <pre id={id} class="code" tabindex={0} aria-label={label} data-language={language ?? undefined}>
        <code>
          {lines.map((line, index) => {
            const highlighted = block.nodes?.[index]?.data?.highlighted === true;
            // The newline stays outside the line's span: in a <pre> it is what breaks the lines.
            return (
              <>
                <span class={highlighted ? 'line highlighted' : 'line'}>{tokens?.[index] ? tokens[index].map(renderToken) : line}</span>
                {index < lines.length - 1 ? '\n' : null}
              </>
            );
          })}
        </code>
      </pre>
    </figure>
  );
}

function renderToken(token: CodeToken): ComponentChild {
  if (!token.kind && !token.italic && !token.bold) return token.text;
  const classes = [token.kind ? `c-${token.kind}` : '', token.italic ? 'c-italic' : '', token.bold ? 'c-bold' : ''].filter(Boolean).join(' ');
  return <span class={classes}>{token.text}</span>;
}
