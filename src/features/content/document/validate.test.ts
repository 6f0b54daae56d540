import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentProblem, MAX_DOCUMENT_DEPTH, MAX_DOCUMENT_NODES } from './validate.ts';

const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const paragraph = (value: string) => ({ object: 'block', type: 'paragraph', nodes: [text(value)] });
const quotes = (levels: number) => {
  let node: object = paragraph('deep');
  for (let i = 0; i < levels; i++) node = { object: 'block', type: 'blockquote', nodes: [node] };
  return { object: 'document', nodes: [node] };
};

test('a valid document has no problem', () => {
  assert.equal(documentProblem({ object: 'document', nodes: [paragraph('a'), quotes(3).nodes[0]] }), null);
});

test('nulls, wrong types and unknown node types are named by their path', () => {
  assert.deepEqual(documentProblem({ object: 'document', nodes: [null] }), { path: '/nodes/0', message: 'must be a node object, not null' });
  assert.equal(documentProblem({ object: 'document', nodes: [paragraph('a'), { object: 'block', type: 'paragraph', nodes: [text('b'), 7] }] })?.path, '/nodes/1/nodes/1');
  assert.equal(documentProblem({ object: 'document', nodes: { a: 1 } })?.path, '/nodes');
  assert.ok(documentProblem({ object: 'document', nodes: [{ object: 'block', type: 'no-such-block', nodes: [] }] })?.path.startsWith('/nodes/0'));
  assert.ok(documentProblem({ object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf' }] }] }] }));
  assert.ok(documentProblem(null));
  assert.ok(documentProblem([]));
});

test('depth: up to the limit is fine, past it names the limit; 100,000 levels are no stack overflow', () => {
  // A quote level adds one; the paragraph, its text and its leaf three more.
  assert.equal(documentProblem(quotes(MAX_DOCUMENT_DEPTH - 4)), null);
  assert.match(documentProblem(quotes(MAX_DOCUMENT_DEPTH))!.message, new RegExp(`more than ${MAX_DOCUMENT_DEPTH} levels`));
  let deep: unknown = [];
  for (let i = 0; i < 100_000; i++) deep = { object: 'block', type: 'blockquote', nodes: [deep] };
  assert.match(documentProblem({ object: 'document', nodes: [deep] })!.message, /levels deep/);
});

test('node count: past the limit names it', () => {
  const nodes = Array.from({ length: MAX_DOCUMENT_NODES / 3 + 1 }, () => paragraph('x'));
  assert.match(documentProblem({ object: 'document', nodes })!.message, new RegExp(`more than ${MAX_DOCUMENT_NODES} nodes`));
});

test('a key held by two nodes names the second by its path, and the first', () => {
  const keyed = (key: string, value: string) => ({ ...paragraph(value), key });
  const split = { object: 'document', nodes: [keyed('K', 'Alpha '), keyed('K', 'paragraph.'), keyed('L', 'Beta.')] };
  assert.deepEqual(documentProblem(split), { path: '/nodes/1', message: 'repeats the key "K" of the node at /nodes/0: a key names one node of a document' });
  // Any node: a text inside a quote holding a block's key.
  const nested = { object: 'document', nodes: [keyed('K', 'a'), { object: 'block', type: 'blockquote', nodes: [{ ...paragraph('b'), nodes: [{ ...text('b'), key: 'K' }] }] }] };
  assert.equal(documentProblem(nested)?.path, '/nodes/1/nodes/0/nodes/0');
  assert.equal(documentProblem({ object: 'document', nodes: [keyed('K', 'a'), keyed('L', 'b'), paragraph('c'), paragraph('c')] }), null);
});
