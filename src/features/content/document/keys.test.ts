import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keyDocument, randomKey, withUniqueKeys } from './keys.ts';
import { doc, hint, item, p, resolveRef, ul } from './test-fixtures.ts';
import { markdownToDocument } from './to-document.ts';
import type { Document } from './types.ts';

const keysOf = (document: Document): string[] => {
  const keys: string[] = [];
  JSON.stringify(document, (name, value: unknown) => {
    if (name === 'key') keys.push(value as string);
    return value;
  });
  return keys;
};

describe('block keys', () => {
  test('every block read from markdown has a key, and keys are unique', () => {
    const document = markdownToDocument('# A\n\n- x\n- x\n\n{% hint style="info" %}\nx\n{% endhint %}\n\nx\n', resolveRef);
    const keys = keysOf(document);
    assert.equal(keys.length, 9);
    assert.equal(new Set(keys).size, keys.length);
  });

  test('the same markdown always gives the same keys', () => {
    const markdown = '# A\n\nsome text\n\n- one\n- two\n';
    assert.deepEqual(keysOf(markdownToDocument(markdown, resolveRef)), keysOf(markdownToDocument(markdown, resolveRef)));
  });

  test('inserting a block above others does not change their keys', () => {
    const before = markdownToDocument('# Title\n\nFirst\n\nSecond\n', resolveRef);
    const after = markdownToDocument('# Title\n\nNew\n\nFirst\n\nSecond\n', resolveRef);
    assert.equal(after.nodes[2]!.key, before.nodes[1]!.key);
    assert.equal(after.nodes[3]!.key, before.nodes[2]!.key);
  });

  test('editing a block changes its key and its container keys only', () => {
    const before = markdownToDocument('Intro\n\n- one\n- two\n', resolveRef);
    const after = markdownToDocument('Intro\n\n- one\n- 2\n', resolveRef);
    assert.equal(after.nodes[0]!.key, before.nodes[0]!.key);
    assert.notEqual(after.nodes[1]!.key, before.nodes[1]!.key);
    const items = (d: Document) => (d.nodes[1] as { nodes: { key?: string }[] }).nodes.map((n) => n.key);
    assert.equal(items(after)[0], items(before)[0]);
    assert.notEqual(items(after)[1], items(before)[1]);
  });

  test('identical blocks get different keys, counted from the top', () => {
    const document = keyDocument(doc(p('same'), p('same')));
    assert.notEqual(document.nodes[0]!.key, document.nodes[1]!.key);
    assert.equal(keyDocument(doc(p('same'), p('other'))).nodes[0]!.key, document.nodes[0]!.key);
  });

  test('keys already present are kept', () => {
    const document = doc({ ...p('kept'), key: 'mine' }, hint('info', { ...p('inner'), key: 'also-mine' }), ul(item(p('x'))));
    keyDocument(document);
    assert.equal(document.nodes[0]!.key, 'mine');
    assert.equal((document.nodes[1] as { nodes: { key?: string }[] }).nodes[0]!.key, 'also-mine');
    assert.ok(document.nodes[1]!.key);
    assert.ok(document.nodes[2]!.key);
  });

  test('a given key does not change the keys computed for the others', () => {
    const plain = keyDocument(doc(p('a'), p('b')));
    const withKey = keyDocument(doc({ ...p('a'), key: 'mine' }, p('b')));
    assert.equal(withKey.nodes[1]!.key, plain.nodes[1]!.key);
  });

  test('a very deep document is keyed without running out of stack', () => {
    let block = p('deep');
    for (let i = 0; i < 20_000; i++) block = { object: 'block', type: 'blockquote', data: {}, nodes: [block] };
    const document = keyDocument(doc(block));
    assert.ok(document.nodes[0]!.key);
  });

  test('repeated keys: the first holder keeps its key, later ones get new keys, the same ones each time', () => {
    const keyed = <T extends object>(node: T, key: string) => ({ ...node, key });
    const document = doc(
      keyed(p('Alpha '), 'K'),
      keyed(p('paragraph.'), 'K'),
      keyed(ul(keyed(item(keyed(p('x'), 'K')), 'I'), keyed(item(p('y')), 'I')), 'L'),
    );
    const repaired = withUniqueKeys(document);
    const keys = keysOf(repaired);
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(repaired.nodes[0]!.key, 'K');
    assert.equal(repaired.nodes[2]!.key, 'L');
    assert.equal((repaired.nodes[2] as { nodes: { key?: string }[] }).nodes[0]!.key, 'I');
    assert.deepEqual(keysOf(withUniqueKeys(document)), keys);
    assert.equal(document.nodes[1]!.key, 'K', 'the document given is left as it was');
    // Text and inline keys count too: a text may hold a key a block holds.
    const text = doc(keyed(p('a'), 'T'), { ...p('b'), nodes: [{ object: 'text', key: 'T', leaves: [{ object: 'leaf', text: 'b', marks: [] }] }] } as never);
    assert.notEqual((withUniqueKeys(text).nodes[1] as { nodes: { key?: string }[] }).nodes[0]!.key, 'T');
  });

  test('a document whose keys do not repeat is given back as it is', () => {
    const document = markdownToDocument('# A\n\n- x\n- x\n', resolveRef);
    assert.equal(withUniqueKeys(document), document);
  });

  test('random keys are twelve characters of base64url', () => {
    const keys = Array.from({ length: 100 }, randomKey);
    assert.ok(keys.every((key) => /^[A-Za-z0-9_-]{12}$/.test(key)));
    assert.equal(new Set(keys).size, 100);
  });
});
