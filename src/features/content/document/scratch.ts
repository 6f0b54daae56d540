import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { keyDocument } from './keys.ts';
import { markdownToDocument } from './to-document.ts';
import { documentToMarkdown } from './to-markdown.ts';
import { resolveRef, writeRef, withoutKeys } from './test-fixtures.ts';
const v = JSON.parse(readFileSync('/tmp/mdx/cex.txt', 'utf8').split('\n')[Number(process.argv[2])]!);
if (typeof v === 'string') {
  const d = markdownToDocument(v, resolveRef); const md1 = documentToMarkdown(d, writeRef);
  console.log(JSON.stringify(v)); console.log(JSON.stringify(md1)); console.log(JSON.stringify(withoutKeys(d)));
  const d2 = markdownToDocument(md1, resolveRef); console.log(JSON.stringify(documentToMarkdown(d2, writeRef))); console.log(JSON.stringify(withoutKeys(d2)));
} else {
  const md = documentToMarkdown(v, writeRef); console.log(md);
  const back = markdownToDocument(md, resolveRef);
  try { assert.deepEqual(back, keyDocument(JSON.parse(JSON.stringify(v)))); console.log('EQUAL'); } catch (e) { console.log((e as Error).message.replace(/\n.*key: .*$/mg, '').slice(0, 3000)); }
  console.log(JSON.stringify(documentToMarkdown(back, writeRef)));
}
