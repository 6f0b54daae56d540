/**
 * The answer of an integration to a render request, checked before it is passed on: the official
 * `ContentKitRenderOutput` is either `{ type: 'element', element, state, props }` with a root element (a
 * `block`, `modal` or `configuration` with `children`), or `{ type: 'complete', returnValue? }`. The element
 * tree below the root is the integration's own and is passed on as is (its size is bounded by the transport).
 * Pure: returns the output to answer, or why it was refused.
 */
export type RenderOutputCheck = { ok: true; output: Record<string, unknown> } | { ok: false; reason: string };

const ROOT_TYPES = new Set(['block', 'modal', 'configuration']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function checkRenderOutput(value: unknown): RenderOutputCheck {
  if (!isObject(value)) return { ok: false, reason: 'the answer is not a JSON object' };
  if (value.type === 'complete') {
    if (value.returnValue !== undefined && !isObject(value.returnValue)) return { ok: false, reason: 'returnValue of a "complete" output must be an object' };
    return { ok: true, output: { type: 'complete', ...(value.returnValue !== undefined ? { returnValue: value.returnValue } : {}) } };
  }
  if (value.type !== undefined && value.type !== 'element') return { ok: false, reason: `type must be "element" or "complete", not ${JSON.stringify(value.type)}` };
  const element = value.element;
  if (!isObject(element)) return { ok: false, reason: 'element is missing or not an object' };
  if (typeof element.type !== 'string' || !ROOT_TYPES.has(element.type)) {
    return { ok: false, reason: `element.type must be one of ${[...ROOT_TYPES].join(', ')}, not ${JSON.stringify(element.type)}` };
  }
  if (!Array.isArray(element.children)) return { ok: false, reason: 'element.children must be an array' };
  for (const key of ['state', 'props'] as const) {
    if (value[key] !== undefined && !isObject(value[key])) return { ok: false, reason: `${key} must be an object` };
  }
  return { ok: true, output: { type: 'element', element, state: value.state ?? {}, props: value.props ?? {} } };
}
