import { markdownToDocument } from './to-document.ts';
import { documentToMarkdown } from './to-markdown.ts';
import { resolveRef, writeRef } from './test-fixtures.ts';
const md = 'para **b** [l](x.md)\n\n'.repeat(20000);
for (let i = 0; i < 3; i++) {
  let t = performance.now();
  const doc = markdownToDocument(md, resolveRef);
  const a = performance.now() - t; t = performance.now();
  documentToMarkdown(doc, writeRef);
  console.log(Math.round(a), Math.round(performance.now() - t));
}
