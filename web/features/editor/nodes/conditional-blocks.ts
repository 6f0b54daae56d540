import type { JSONContent } from '@tiptap/core';

/*
 * Conditional content and prompts as the `/` menu inserts them, in GitBook's shape: an `if` whose condition is
 * set from its header (conditional.tsx), holding a line to type on; a prompt with its description and the one
 * code block GitBook gives a prompt (its spec: a prompt holds a code block), the text to copy.
 */

const shell = (type: string, data: Record<string, unknown>) => ({ object: 'block', type, data, nodes: [] });

export const newConditional = (expression = ''): JSONContent => ({ type: 'conditional', attrs: { block: shell('if', { expression }) }, content: [{ type: 'paragraph' }] });

export const newPrompt = (): JSONContent => ({
  type: 'prompt',
  attrs: { block: shell('prompt', { description: '' }) },
  content: [{ type: 'codeBlock', attrs: { block: shell('code', { syntax: 'markdown' }), language: 'markdown' } }],
});

/*
 * Where GitBook takes them (its spec's node unions): conditional content only in the page's flow (or in other
 * conditional content); a prompt there or in a tab, an expandable's body, a step, a column or an update, never
 * in a hint, a quote, a list or another prompt. `ancestors`: the caret's, by node name, from the document down.
 */
const PROMPT_HOLDERS = new Set(['conditional', 'tabs', 'tabsItem', 'expandable', 'stepper', 'stepperStep', 'columns', 'column', 'updates', 'update']);

const between = (ancestors: readonly string[]) => ancestors.slice(1, -1);

export const conditionalFitsIn = (ancestors: readonly string[]): boolean => between(ancestors).every((name) => name === 'conditional');

export const promptFitsIn = (ancestors: readonly string[]): boolean =>
  between(ancestors).every((name, i, all) => PROMPT_HOLDERS.has(name) || (name === 'fragment' && all[i - 1] === 'expandable'));
