import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { joinPageMarkdown, relativeLinkCandidates, splitPageMarkdown } from './markdown.ts';

describe('Git Sync page files: front matter and links', () => {
  test('every front matter key survives: page fields as attributes, the others kept as written', () => {
    const file = '---\ndescription: Build docs\ncover: .gitbook/assets/cover.png\ncoverY: 0\nlayout:\n  title:\n    visible: true\nmetadata:\n  keywords: [a, b]\ntags:\n  - beta\n---\n\n# Quickstart\n\nBody.\n';
    const { body, front } = splitPageMarkdown(file, 'quickstart.md');
    assert.equal(front.title, 'Quickstart');
    assert.equal(front.attributes.description, 'Build docs');
    assert.deepEqual(front.attributes.layout, { title: { visible: true } });
    assert.deepEqual(front.attributes.frontMatter, { cover: '.gitbook/assets/cover.png', coverY: 0, metadata: { keywords: ['a', 'b'] }, tags: ['beta'] });
    const again = splitPageMarkdown(joinPageMarkdown(front, body), 'quickstart.md');
    assert.deepEqual(again, { body, front });
  });

  test('a page without front matter is written without it', () => {
    assert.equal(joinPageMarkdown({ title: 'T', attributes: {} }, 'x\n'), '# T\n\nx\n');
  });

  test('a title’s pinned anchor (FastAPI’s `# Features { #features }`, as GitBook writes it) is not part of the title', () => {
    const { body, front } = splitPageMarkdown('# Features <a href="#features" id="features"></a>\n\nFast.\n', 'features.md');
    assert.equal(front.title, 'Features');
    assert.equal(body, 'Fast.\n');
  });

  test('./#anchor in a README page points at the page itself first, other relative links at the folder first', () => {
    assert.deepEqual(relativeLinkCandidates('guides/setup', './#install'), ['guides/setup', 'guides']);
    assert.deepEqual(relativeLinkCandidates('guides/setup', 'other.md#x'), ['guides/other', 'guides/setup/other']);
  });
});
