import { startBenchServer } from './server.ts';

/*
 * `node --import tsx bench/reader-cold.ts`: the CPU a cold render of a published 300-block page costs (issue 11:
 * within 30 ms). Cold means the render cache misses: each measured request carries a visitor claim no request
 * had before (`?visitor.round=<n>`), so the page model is built and the document rendered again. The first
 * render of the process is shown apart (grammars compile then, unless preloaded at start), then the mean of
 * ROUNDS renders. CPU time, not wall time: the machine is shared.
 */

const rounds = Number(process.env.ROUNDS ?? 50);
const LANGUAGES = ['ts', 'js', 'json', 'bash', 'python', 'yaml', 'go', 'html'];

function pageMarkdown(seed = 0): string {
  const blocks: string[] = [];
  for (let n = 0; blocks.length < 300; n++) {
    const i = n + seed;
    const lang = LANGUAGES[i % LANGUAGES.length]!;
    blocks.push(`## Section ${i}`);
    blocks.push(`Paragraph ${i} with **bold**, _italic_, \`code\` and [a link](https://example.com/${i}).`);
    blocks.push(`- item ${i}.1\n- item ${i}.2 with [another link](https://example.org/${i})`);
    if (i % 2 === 0) blocks.push(`\`\`\`${lang}\n${codeIn(lang, i)}\n\`\`\``);
    if (i % 5 === 0) blocks.push(`{% hint style="info" %}\nA hint about section ${i}.\n{% endhint %}`);
    if (i % 7 === 0) blocks.push(`| name | value |\n| --- | --- |\n| a${i} | ${i} |\n| b${i} | ${i * 2} |`);
  }
  return `${blocks.slice(0, 300).join('\n\n')}\n`;
}

function codeIn(lang: string, i: number): string {
  switch (lang) {
    case 'ts':
      return `export function f${i}(x: number): number {\n  const y = x * ${i};\n  return y + 1;\n}`;
    case 'js':
      return `const list${i} = [1, 2, 3].map((n) => n * ${i});\nconsole.log(list${i});`;
    case 'json':
      return `{ "id": ${i}, "name": "item ${i}", "tags": ["a", "b"] }`;
    case 'bash':
      return `for f in *.md; do\n  echo "$f ${i}"\ndone`;
    case 'python':
      return `def f${i}(x):\n    return [y * ${i} for y in range(x)]`;
    case 'yaml':
      return `name: item-${i}\nvalues:\n  - ${i}\n  - ${i + 1}`;
    case 'go':
      return `func F${i}(x int) int {\n\treturn x * ${i}\n}`;
    default:
      return `<div class="item-${i}"><p>Item ${i}</p></div>`;
  }
}

const server = await startBenchServer(process.env.PROFILE_PG_URL ? { pgUrl: process.env.PROFILE_PG_URL } : {});
try {
  const space = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/spaces`, { title: 'Cold render' });
  const cr = await server.api<{ id: string }>('POST', `/spaces/${space.id}/change-requests`, {});
  await server.api('POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_page', title: 'Long page', document: { markdown: pageMarkdown() } },
      { operation: 'insert_page', title: 'Other page', document: { markdown: pageMarkdown(1000) } },
      { operation: 'insert_page', title: 'Third page', document: { markdown: pageMarkdown(2000) } },
    ],
  });
  await server.api('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const site = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/sites`, { title: 'Cold render', spaces: [space.id] });
  await server.api('POST', `/orgs/${server.organizationId}/sites/${site.id}/publish`);
  const path = `/sites/${site.id}/`;
  // The server preloads its grammars when it starts listening; a process serves for long after that.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const render = async (round: number, page = '') => {
    const cpu = process.cpuUsage();
    const response = await server.app.inject({ method: 'GET', url: `${path}${page}?visitor.round=${round}` });
    const used = process.cpuUsage(cpu);
    if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body.slice(0, 200)}`);
    return { ms: (used.user + used.system) / 1000, bytes: response.rawPayload.length };
  };
  const first = await render(0);
  console.log(`first render in this process: ${first.ms.toFixed(1)} ms CPU (${(first.bytes / 1024).toFixed(0)} KiB of HTML)`);
  const other = await render(0, 'other-page');
  console.log(`first render of another page (code never highlighted before): ${other.ms.toFixed(1)} ms CPU`);
  const third = await render(0, 'third-page');
  console.log(`first render of a third page (code never highlighted before): ${third.ms.toFixed(1)} ms CPU`);
  let total = 0;
  for (let round = 1; round <= rounds; round++) total += (await render(round)).ms;
  console.log(`cold render (render cache miss), mean of ${rounds}: ${(total / rounds).toFixed(1)} ms CPU`);
} finally {
  await server.close();
}
