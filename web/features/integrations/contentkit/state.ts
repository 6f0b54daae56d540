/*
 * A ContentKit component's state as the person edits it (pure: the renderer holds it, the tests call it).
 * Inputs are bound to a key of the state (`state: "channel"`): a text input, select, switch or radio writes its
 * value there, a checkbox adds or removes its value from the array there. The whole state goes back to the
 * integration with the next action, which answers the next state.
 */
export type ContentKitState = Record<string, unknown>;

/** The value an input shows: what the state holds under its key, else its `initialValue`. */
export function boundValue(state: ContentKitState, key: string, initialValue?: unknown): unknown {
  return Object.prototype.hasOwnProperty.call(state, key) ? state[key] : initialValue;
}

export function withValue(state: ContentKitState, key: string, value: unknown): ContentKitState {
  return { ...state, [key]: value };
}

/** A checkbox of `value` bound to `key`, checked or not: the array under the key gains or loses the value. */
export function withCheckbox(state: ContentKitState, key: string, value: string | number, checked: boolean): ContentKitState {
  const current = Array.isArray(state[key]) ? (state[key] as unknown[]) : [];
  const without = current.filter((item) => item !== value);
  return { ...state, [key]: checked ? [...without, value] : without };
}

export function isChecked(state: ContentKitState, key: string, value: string | number): boolean {
  return Array.isArray(state[key]) && (state[key] as unknown[]).includes(value);
}

/** The text of a `string | { $state }` property (a code block's or markdown's content bound to the state). */
export function resolveBinding(value: unknown, state: ContentKitState): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { $state?: unknown }).$state === 'string') {
    const bound = state[(value as { $state: string }).$state];
    return bound === undefined || bound === null ? '' : String(bound);
  }
  return '';
}

/** The initial values the inputs of a rendered element declare, for the keys the state does not hold yet. */
export function initialStateOf(element: unknown, state: ContentKitState): ContentKitState {
  const found: ContentKitState = {};
  const visit = (node: unknown, depth: number) => {
    if (depth > 50 || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    if (typeof record.state === 'string' && record.initialValue !== undefined && !(record.state in state) && !(record.state in found)) {
      found[record.state] = record.initialValue;
    }
    for (const key of ['children', 'element', 'buttons', 'header', 'footer', 'submit']) visit(record[key], depth + 1);
  };
  visit(element, 0);
  return { ...found, ...state };
}

/** Where a pressed action goes: the app itself handles GitBook's `@ui.*` actions, the integration the rest. */
export type ActionRoute =
  | { kind: 'open-modal'; componentId: string; props: Record<string, unknown> }
  | { kind: 'close-modal'; returnValue: Record<string, unknown> }
  | { kind: 'open-url'; url: string }
  /** GitBook's `@editor.node.updateProps`: a document block's component changes the props stored in its block. */
  | { kind: 'update-props'; props: Record<string, unknown> }
  | { kind: 'integration'; action: Record<string, unknown> };

export function routeAction(action: Record<string, unknown>): ActionRoute {
  switch (action.action) {
    case '@ui.modal.open':
      return { kind: 'open-modal', componentId: String(action.componentId ?? ''), props: objectOr(action.props) };
    case '@ui.modal.close':
      return { kind: 'close-modal', returnValue: objectOr(action.returnValue) };
    case '@ui.url.open':
      return { kind: 'open-url', url: String(action.url ?? '') };
    case '@editor.node.updateProps':
      return { kind: 'update-props', props: objectOr(action.props) };
    default:
      return { kind: 'integration', action };
  }
}

function objectOr(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** An http(s) URL only: an integration's element must not open `javascript:` or a data URL. */
export function safeHttpUrl(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}
