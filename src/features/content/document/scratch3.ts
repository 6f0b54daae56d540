import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { keyDocument } from './keys.ts';
import { markdownToDocument } from './to-document.ts';
import { documentToMarkdown } from './to-markdown.ts';
import { resolveRef, writeRef } from './test-fixtures.ts';
const document = JSON.parse(readFileSync('/tmp/mdx/cex.txt', 'utf8').split('\n')[Number(process.argv[2])]!);
const md = documentToMarkdown(document, writeRef);
console.log(md);
const back = markdownToDocument(md, resolveRef);
try { assert.deepEqual(back, keyDocument(JSON.parse(JSON.stringify(document)))); console.log('EQUAL'); } catch (e) { console.log((e as Error).message.slice(0, 4000)); }
