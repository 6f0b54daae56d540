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

test('a declared block shows its integration\'s icon only when this server serves it, and a one-line description', () => {
  const origin = 'https://docs.example.com';
  const found = declaredBlocks(
    [
      { name: 'figma', title: 'Figma', icon: `${origin}/integrations/figma/assets/abc`, blocks: [{ id: 'frame', title: 'Figma frame', description: 'A frame\n  of a file' }, { id: 'file', title: 'Figma file' }] },
      { name: 'tracker', icon: 'https://tracker.example.net/icon.png', blocks: [{ id: 'b', title: 'Tracked' }] },
    ],
    origin,
  );
  assert.deepEqual(found, [
    { integration: 'figma', id: 'frame', title: 'Figma frame', description: 'A frame of a file', icon: `${origin}/integrations/figma/assets/abc` },
    { integration: 'figma', id: 'file', title: 'Figma file', description: 'A block of the Figma integration', icon: `${origin}/integrations/figma/assets/abc` },
    { integration: 'tracker', id: 'b', title: 'Tracked', description: 'A block of the tracker integration' },
  ]);
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
