import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundValue, initialStateOf, isChecked, resolveBinding, routeAction, safeHttpUrl, withCheckbox, withValue } from './state.ts';

test('an input shows its state value, else its initial value', () => {
  assert.equal(boundValue({ channel: 'docs' }, 'channel', 'general'), 'docs');
  assert.equal(boundValue({}, 'channel', 'general'), 'general');
  assert.equal(boundValue({ channel: '' }, 'channel', 'general'), '', 'an emptied input stays empty');
  assert.deepEqual(withValue({ a: 1 }, 'b', true), { a: 1, b: true });
});

test('checkboxes add and remove their value from the array of their key', () => {
  let state = withCheckbox({}, 'events', 'push', true);
  state = withCheckbox(state, 'events', 'merge', true);
  assert.deepEqual(state.events, ['push', 'merge']);
  assert.ok(isChecked(state, 'events', 'merge'));
  state = withCheckbox(state, 'events', 'push', false);
  assert.deepEqual(state.events, ['merge']);
  assert.equal(isChecked(state, 'events', 'push'), false);
});

test('a binding reads the state; text stays text', () => {
  assert.equal(resolveBinding('plain', {}), 'plain');
  assert.equal(resolveBinding({ $state: 'code' }, { code: 'x = 1' }), 'x = 1');
  assert.equal(resolveBinding({ $state: 'missing' }, {}), '');
});

test('initial values of nested inputs fill the keys the state lacks', () => {
  const element = {
    type: 'configuration',
    children: [
      { type: 'input', label: 'Channel', element: { type: 'textinput', state: 'channel', initialValue: 'general' } },
      { type: 'vstack', children: [{ type: 'switch', state: 'notify', initialValue: true }] },
    ],
  };
  assert.deepEqual(initialStateOf(element, { channel: 'docs' }), { channel: 'docs', notify: true });
});

test("GitBook's @ui actions stay in the app; others go to the integration", () => {
  assert.deepEqual(routeAction({ action: '@ui.modal.open', componentId: 'pick', props: { a: 1 } }), { kind: 'open-modal', componentId: 'pick', props: { a: 1 } });
  assert.deepEqual(routeAction({ action: '@ui.modal.close', returnValue: { ok: true } }), { kind: 'close-modal', returnValue: { ok: true } });
  assert.deepEqual(routeAction({ action: '@editor.node.updateProps', props: { frame: 'a' } }), { kind: 'update-props', props: { frame: 'a' } });
  assert.deepEqual(routeAction({ action: '@ui.url.open', url: 'https://example.com' }), { kind: 'open-url', url: 'https://example.com' });
  assert.deepEqual(routeAction({ action: 'save' }), { kind: 'integration', action: { action: 'save' } });
});

test('only http(s) URLs are opened', () => {
  assert.equal(safeHttpUrl('https://example.com/a'), 'https://example.com/a');
  assert.equal(safeHttpUrl('javascript:alert(1)'), null);
  assert.equal(safeHttpUrl('not a url'), null);
});
