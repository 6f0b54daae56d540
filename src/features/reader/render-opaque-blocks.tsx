import type { ComponentChild } from 'preact';
import type { Block, ContentRef, Fragment } from '../content/document/types.ts';
import { formulaToMathMl } from './math.ts';
import type { RenderContext } from './render-context.ts';
import { imageSource } from './render-inline.tsx';
import { OPENAPI_BLOCK_TYPES, renderOpenAPIBlock } from './render-openapi.tsx';
import { ifExpression } from '../content/document/nodes.ts';
import { updateDateText } from '../content/document/update-date.ts';

/*
 * Blocks of the spec that Quire stores without modelling (types.ts: OPAQUE_BLOCK_TYPES), rendered from the
 * fields the spec gives them. Those that need data the reader does not have render nothing.
 */

type RenderFlow = (nodes: readonly Block[], ctx: RenderContext, depth: number) => ComponentChild[];

export interface OtherBlock { type: string; data?: Record<string, unknown>; nodes?: unknown[]; fragments?: Fragment[] }

export function renderOtherBlock(block: OtherBlock, ctx: RenderContext, depth: number, renderFlow: RenderFlow): ComponentChild {
  const data = block.data ?? {};
  const children = (Array.isArray(block.nodes) ? block.nodes : []) as OtherBlock[];
  switch (block.type) {
    case 'math': {
      const formula = typeof data.formula === 'string' ? data.formula : '';
      const mathml = formulaToMathMl(formula, true);
      // temml's output is escaped MathML; the only HTML this renderer does not build itself.
      return mathml ? <div class="math" dangerouslySetInnerHTML={{ __html: mathml }} /> : <pre class="math-source"><code>{formula}</code></pre>;
    }
    case 'drawing': {
      const src = imageSource(data.ref as ContentRef | undefined, ctx);
      return src ? (
        <figure class="image drawing">
          <img src={src} alt="Drawing" loading="lazy" decoding="async" />
        </figure>
      ) : null;
    }
    case 'stepper':
      return (
        <ol class="stepper">
          {children.map((step) => (
            <li class="step">{renderFlow((step?.nodes ?? []) as Block[], ctx, depth + 2)}</li>
          ))}
        </ol>
      );
    case 'columns':
      return (
        <div class="columns">
          {children.map((column) => (
            <div class="column">{renderFlow((column?.nodes ?? []) as Block[], ctx, depth + 2)}</div>
          ))}
        </div>
      );
    case 'updates':
      return (
        <div class="updates">
          {children.map((update) => {
            const date = typeof update?.data?.date === 'string' ? update.data.date : '';
            const tags = (Array.isArray(update?.data?.tags) ? update.data.tags : [])
              .map((tag) => (tag && typeof tag === 'object' ? (tag as { tag?: unknown }).tag : undefined))
              .filter((tag): tag is string => typeof tag === 'string');
            return (
              <section class="update">
                <p class="update-meta">
                  {date ? <time dateTime={date}>{updateDateText(date)}</time> : null}
                  {tags.map((tag) => (
                    <span class="update-tag">{tag}</span>
                  ))}
                </p>
                {renderFlow((update?.nodes ?? []) as Block[], ctx, depth + 2)}
              </section>
            );
          })}
        </div>
      );
    case 'prompt': {
      const description = typeof data.description === 'string' ? data.description : '';
      return (
        <div class="prompt" role="group" aria-label={description || 'Prompt'}>
          {description ? <p class="prompt-description">{description}</p> : null}
          {renderFlow(children as unknown as Block[], ctx, depth + 1)}
        </div>
      );
    }
    case 'if': {
      const condition = ifExpression(data);
      const visible = condition !== '' && ctx.options.evaluateCondition?.(condition) === true;
      return visible ? renderFlow(children as unknown as Block[], ctx, depth + 1) : null;
    }
    default:
      if (OPENAPI_BLOCK_TYPES.has(block.type)) return renderOpenAPIBlock(block.type, data, ctx);
      // Integrations, reusable content: they need data the reader does not have here.
      return null;
  }
}
