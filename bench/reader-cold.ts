import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { preloadHighlighter } from '../src/features/reader/highlight.ts';
import { startBenchServer } from './server.ts';

/*
 * `node --import tsx bench/reader-cold.ts`: the CPU a cold render of a published 300-block page costs (issue 11:
 * within 30 ms). Cold means the render cache misses: each measured request carries a visitor claim no request
 * had before (`?visitor.round=<n>`), so the page model is built and the document rendered again. The first
 * render of the process is shown apart (grammars compile then, unless preloaded at start), then the mean of
 * ROUNDS renders. CPU time, not wall time: the machine is shared.
 */

const rounds = Number(process.env.ROUNDS ?? 50);
const FRESH_PAGES = Number(process.env.FRESH_PAGES ?? 12);
const LANGUAGES = ['ts', 'js', 'json', 'bash', 'python', 'yaml', 'go', 'html'];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

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
      ...Array.from({ length: FRESH_PAGES }, (_, n) => ({ operation: 'insert_page', title: `Fresh ${n + 1}`, document: { markdown: pageMarkdown(1000 * (n + 1)) } })),
    ],
  });
  await server.api('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const site = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/sites`, { title: 'Cold render', spaces: [space.id] });
  await server.api('POST', `/orgs/${server.organizationId}/sites/${site.id}/publish`);
  const path = `/sites/${site.id}/`;
  // The server preloads and warms its grammars when it starts listening; a process serves for long after that.
  await preloadHighlighter();
  const render = async (round: number, page = '') => {
    const cpu = process.cpuUsage();
    const response = await server.app.inject({ method: 'GET', url: `${path}${page}?visitor.round=${round}` });
    const used = process.cpuUsage(cpu);
    if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body.slice(0, 200)}`);
    return { ms: (used.user + used.system) / 1000, bytes: response.rawPayload.length };
  };
  const first = await render(0);
  console.log(`first render in this process: ${first.ms.toFixed(1)} ms CPU (${(first.bytes / 1024).toFixed(0)} KiB of HTML)`);
  let total = 0;
  for (let round = 1; round <= rounds; round++) total += (await render(round)).ms;
  console.log(`cold render (render cache miss, code highlighted before), mean of ${rounds}: ${(total / rounds).toFixed(1)} ms CPU`);
  // Each fresh page holds code no render has met: its blocks are tokenized during the measured request.
  const session = process.env.PROFILE_DIR ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  // Fresh and highlighted-before renders alternate, so that both meet the same load from other processes.
  const fresh: number[] = [];
  const seen: number[] = [];
  for (let n = 1; n <= FRESH_PAGES; n++) {
    fresh.push((await render(0, `fresh-${n}`)).ms);
    seen.push((await render(rounds + n)).ms);
  }
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(`${process.env.PROFILE_DIR}/reader-cold-fresh.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  }
  console.log(`cold render of a page whose code was never highlighted: ${fresh.map((ms) => ms.toFixed(1)).join(', ')} ms CPU`);
  console.log(`  median ${median(fresh).toFixed(1)} ms CPU, against ${median(seen).toFixed(1)} for the page highlighted before, alternating`);
} finally {
  await server.close();
}
