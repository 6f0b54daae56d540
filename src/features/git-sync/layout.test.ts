import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LayoutError, parseGitbookYaml, parseLinkText, parseSummary, resolveRepoPath, splitHref, writeGitbookYaml, writeSummary } from './layout.ts';
import { readRepository, type RepoPage } from './repository.ts';
import { CORPUS_DIR } from '../../../test/corpus/pages.ts';

describe('.gitbook.yaml', () => {
  test('an absent file is the defaults', () => {
    assert.deepEqual(parseGitbookYaml(undefined), { root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: {} });
  });

  test('root, structure and redirects are read, paths cleaned', () => {
    const config = parseGitbookYaml('root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc/SUMMARY.md\nredirects:\n  /help/old/: ./support.md\n  previous: guide/new.md\n');
    assert.deepEqual(config, { root: 'docs', readme: 'intro.md', summary: 'toc/SUMMARY.md', redirects: { 'help/old': 'support.md', previous: 'guide/new.md' } });
  });

  test('a root that leaves the repository is refused', () => {
    assert.throws(() => parseGitbookYaml('root: ../elsewhere'), LayoutError);
  });

  test('invalid YAML names the file', () => {
    assert.throws(() => parseGitbookYaml('root: [unclosed'), /\.gitbook\.yaml is not valid YAML/);
  });

  test('a redirect without a file is refused, naming it', () => {
    assert.throws(() => parseGitbookYaml('redirects:\n  old: 3'), /redirect "old"/);
  });

  test('what Quire writes reads back the same', () => {
    const text = writeGitbookYaml({ redirects: { 'b/old': 'b.md', a: 'guide/README.md' } });
    assert.equal(text, 'root: ./\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\nredirects:\n  a: guide/README.md\n  b/old: b.md\n');
    assert.deepEqual(parseGitbookYaml(text).redirects, { a: 'guide/README.md', 'b/old': 'b.md' });
  });
});

describe('SUMMARY.md', () => {
  test('entries nest by indentation', () => {
    const summary = parseSummary('# Table of contents\n\n* [Intro](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n    * [Deep](guide/deep.md)\n  * [Use](guide/use.md)\n* [FAQ](faq.md)\n');
    assert.deepEqual(
      summary.entries.map((e) => [e.title, e.href, e.children.map((c) => [c.title, c.children.length])]),
      [
        ['Intro', 'README.md', []],
        ['Guide', 'guide/README.md', [['Setup', 1], ['Use', 0]]],
        ['FAQ', 'faq.md', []],
      ],
    );
  });

  test('group headings hold the entries after them, without their HTML anchors', () => {
    const summary = parseSummary('* [Home](README.md)\n\n## Get Started <a href="#getting-started" id="getting-started"></a>\n\n* [Quickstart](quick.md)\n\n## More\n* [A](a.md)\n');
    assert.equal(summary.entries.length, 1);
    assert.deepEqual(summary.groups.map((g) => [g.title, g.entries.map((e) => e.title)]), [['Get Started', ['Quickstart']], ['More', ['A']]]);
  });

  test('titles keep escaped brackets; hrefs may be in angle brackets or hold parentheses', () => {
    assert.deepEqual(parseLinkText('[A \\[draft\\]](<my page.md>)'), { title: 'A [draft]', href: 'my page.md' });
    assert.deepEqual(parseLinkText('[Fn](api/f(x).md)'), { title: 'Fn', href: 'api/f(x).md' });
    assert.deepEqual(parseLinkText('[T](a.md "a title")'), { title: 'T', href: 'a.md' });
    assert.equal(parseLinkText('no link here'), undefined);
  });

  test('tabs and star, plus or minus bullets are entries; other lines are skipped', () => {
    const summary = parseSummary('Some text\n- [A](a.md)\n\t+ [B](b.md)\n----\n* [C](c.md)\n');
    assert.deepEqual(summary.entries.map((e) => [e.title, e.children.map((c) => c.title)]), [['A', ['B']], ['C', []]]);
  });

  test('written summaries read back the same', () => {
    const summary = {
      entries: [{ title: 'Home', href: 'README.md', children: [] }],
      groups: [{ title: 'Guides [beta]', entries: [{ title: 'A [b]', href: 'guides/a b.md', children: [{ title: 'Link', href: 'https://example.com/x', children: [] }] }] }],
    };
    const text = writeSummary(summary);
    assert.equal(text, '# Table of contents\n\n* [Home](README.md)\n\n## Guides [beta]\n\n* [A \\[b\\]](<guides/a b.md>)\n  * [Link](https://example.com/x)\n');
    assert.deepEqual(parseSummary(text), summary);
    assert.equal(writeSummary(parseSummary(text)), text);
  });
});

describe('repository paths', () => {
  test('relative hrefs resolve from the file, a leading slash from the content root', () => {
    assert.equal(resolveRepoPath('docs/guide/setup.md', 'docs', '../faq.md'), 'docs/faq.md');
    assert.equal(resolveRepoPath('docs/guide/setup.md', 'docs', '/faq.md'), 'docs/faq.md');
    assert.equal(resolveRepoPath('docs/guide/setup.md', 'docs', '../../../x.md'), undefined);
    assert.deepEqual(splitHref('a%20b.md#part-2'), { path: 'a b.md', anchor: 'part-2' });
  });
});

function tree(pages: RepoPage[], depth = 0): string[] {
  return pages.flatMap((p) => [
    `${'  '.repeat(depth)}${p.kind}:${p.title || '?'}:${p.slug}${p.file ? `:${p.file}` : ''}${p.link ? `->${'url' in p.link ? p.link.url : p.link.file + (p.link.anchor ? '#' + p.link.anchor : '')}` : ''}`,
    ...tree(p.children, depth + 1),
  ]);
}

function repo(files: Record<string, string>, project?: string) {
  const map = new Map(Object.entries(files));
  return readRepository(map, (p) => map.get(p), project);
}

describe('the page tree of a repository', () => {
  test('README files are parent pages, groups are groups, repeated and anchored entries are links', () => {
    const content = repo({
      'README.md': '# Home',
      'SUMMARY.md':
        '* [Home](README.md)\n* [Guide](guide/)\n  * [Setup](guide/setup.md)\n  * [Setup options](guide/setup.md#options)\n\n## Reference\n\n* [API](api.md)\n* [Home again](README.md)\n* [Site](https://example.com)\n',
      'guide/README.md': '# Guide',
      'guide/setup.md': '# Setup',
      'api.md': '# API',
    });
    assert.deepEqual(tree(content.pages), [
      'document:Home::README.md',
      'document:Guide:guide:guide/README.md',
      '  document:Setup:setup:guide/setup.md',
      '  link:Setup options:->guide/setup.md#options',
      'group:Reference:reference',
      '  document:API:api:api.md',
      '  link:Home again:->README.md',
      '  link:Site:->https://example.com',
    ]);
  });

  test('files the summary does not list are appended by path, under their folder page, else at the end', () => {
    const content = repo({
      'README.md': '# Home',
      'SUMMARY.md': '* [Home](README.md)\n* [Guide](guide/README.md)\n',
      'guide/README.md': '# Guide',
      'guide/extra.md': '# Extra',
      'other/more.md': '# More',
      'top.md': '# Top',
      '.gitbook/assets/notes.md': 'an asset, not a page',
    });
    assert.deepEqual(tree(content.pages), [
      'document:Home::README.md',
      'document:Guide:guide:guide/README.md',
      '  document:?:extra:guide/extra.md',
      'group:Other:other',
      '  document:?:more:other/more.md',
      'document:?:top:top.md',
    ]);
  });

  test('.gitbook.yaml moves the root, the readme and the summary', () => {
    const content = repo({
      '.gitbook.yaml': 'root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc.md\nredirects:\n  old: intro.md\n',
      'README.md': 'the repository readme, not content',
      'docs/intro.md': '# Intro',
      'docs/toc.md': '* [Intro](intro.md)\n* [Next](next.md)\n',
      'docs/next.md': '# Next',
    });
    assert.deepEqual(tree(content.pages), ['document:Intro::docs/intro.md', 'document:Next:next:docs/next.md']);
    assert.deepEqual(content.config.redirects, { old: 'intro.md' });
  });

  test('a project directory is where .gitbook.yaml is looked for', () => {
    const content = repo({ 'site/.gitbook.yaml': 'root: ./content/', 'site/content/README.md': '# Hi' }, 'site');
    assert.deepEqual(tree(content.pages), ['document:?::site/content/README.md']);
  });

  test('the GitBook documentation repository reads with its groups, nesting and links', () => {
    const dir = CORPUS_DIR;
    const files = new Map<string, string>();
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const full = join(d, name);
        if (statSync(full).isDirectory()) walk(full);
        else files.set(relative(dir, full), name.endsWith('.md') ? readFileSync(full, 'utf8') : '');
      }
    };
    walk(dir);
    const content = readRepository(files, (p) => files.get(p));
    const lines = tree(content.pages);
    assert.equal(lines[0], 'document:GitBook documentation::README.md');
    assert.ok(lines.includes('group:Get Started:get-started'));
    assert.ok(lines.some((l) => l.includes('link:Buttons:->create-content/formatting/inline.md#buttons')));
    assert.ok(lines.some((l) => l.includes('link:Custom blocks:->https://app.gitbook.com/')));
    assert.ok(content.pageByFile.size >= 170, `pages: ${content.pageByFile.size}`);
  });
});
