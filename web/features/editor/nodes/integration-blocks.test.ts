import assert from 'node:assert/strict';
import { test } from 'node:test';
import { declaredBlocks, integrationRenderOf, newIntegrationBlock } from './integration-blocks.ts';

test('an integration block is rendered as its integration, its block id as the component, its props as they are', () => {
  assert.deepEqual(integrationRenderOf({ integration: 'figma', block: 'frame', props: { url: 'https://x' }, url: 'https://x' }), { integration: 'figma', componentId: 'frame', props: { url: 'https://x' } });
  assert.deepEqual(integrationRenderOf({ integration: 'figma', block: 'frame' }), { integration: 'figma', componentId: 'frame', props: {} });
  assert.equal(integrationRenderOf({ integration: 'figma' }), undefined);
  assert.equal(integrationRenderOf({ block: 'frame' }), undefined);
  assert.equal(integrationRenderOf(undefined), undefined);
});

test('a new integration block names its integration and block, with no props yet', () => {
  assert.deepEqual(newIntegrationBlock('figma', 'frame'), { object: 'block', type: 'integration', isVoid: true, data: { integration: 'figma', block: 'frame', props: {} } });
});

test('the `/` menu gets one entry per declared block, described by its manifest or by its integration', () => {
  const found = declaredBlocks([
    { name: 'figma', blocks: [{ id: 'frame', title: 'Figma frame', description: 'A frame of a file' }, { id: 'file', title: 'Figma file' }] },
    { name: 'none', blocks: [] },
  ]);
  assert.deepEqual(found, [
    { integration: 'figma', id: 'frame', title: 'Figma frame', description: 'A frame of a file' },
    { integration: 'figma', id: 'file', title: 'Figma file', description: 'A block of the figma integration' },
  ]);
});
