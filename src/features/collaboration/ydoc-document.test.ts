import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as Y from 'yjs';
import type { Document } from '../content/document/types.ts';
import { documentOfYDoc, writeDocumentToYDoc } from './ydoc-document.ts';

const paragraph = (key: string, text: string) => ({ object: 'block', type: 'paragraph', key, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });

test('a Y.Doc holding a key twice (an old client split a block) reads as a document whose later copy has a new key, the same at every read', () => {
  const split = { object: 'document', data: {}, nodes: [paragraph('K', 'Alpha '), paragraph('K', 'paragraph.'), paragraph('L', 'Beta.')] } as unknown as Document;
  const ydoc = new Y.Doc();
  writeDocumentToYDoc(ydoc, split);
  const read = documentOfYDoc(ydoc, split);
  const keys = read.nodes.map((block) => block.key);
  assert.deepEqual([keys[0], keys[2]], ['K', 'L']);
  assert.equal(new Set(keys).size, 3);
  assert.deepEqual(documentOfYDoc(ydoc, split), read);
});
