import { parseMarkdown } from './markdown-parser.ts';
for (const md of ['```md\n| - |\n```\n', '```|a|\n| - | - |\n```\n', '```md\n| a |\n| - |\n```\n', '~~~a|b\n|-|-|\n~~~\n']) {
  console.log(JSON.stringify(md), parseMarkdown(md).map((t) => t.type).join(' '));
}
