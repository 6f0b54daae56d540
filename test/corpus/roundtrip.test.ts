// @sqlite-run-only: conversions of a corpus; no database.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { compareCorpus, comparePages, formatReport, roundTripPage } from './compare.ts';
import { CORPUS_DIR, corpusPages, ELSA_CORPUS_DIR } from './pages.ts';

/*
 * Issue 13's bar: of the real GitBook pages in the shared corpus (GitbookIO/public-docs), at most 5% change in
 * meaning through markdown -> document -> markdown. `node --import tsx scripts/corpus-roundtrip.ts <dir>
 * --verbose` shows which pages and why.
 */

describe('GitBook markdown round trips on a real corpus', { skip: !existsSync(CORPUS_DIR) && 'the shared corpus is not on this machine' }, () => {
  test('at most 5% of the pages of GitbookIO/public-docs change in meaning through a document', () => {
    const pages = corpusPages();
    assert.ok(pages.length > 100, `only ${pages.length} pages found in ${CORPUS_DIR}`);
    const report = compareCorpus(pages.map((page) => ({ file: page.file, original: page.markdown, result: roundTripPage(page.file, page.markdown) })));
    assert.ok(report.changed.length <= pages.length * 0.05, formatReport(report));
  });
});

describe('GitBook markdown round trips on an excerpt of another repository', () => {
  test('at most 5% of the pages of the Elsa Workflows excerpt change in meaning through a document', () => {
    const pages = corpusPages(ELSA_CORPUS_DIR);
    assert.equal(pages.length, 20);
    const report = compareCorpus(pages.map((page) => ({ file: page.file, original: page.markdown, result: roundTripPage(page.file, page.markdown) })));
    assert.ok(report.changed.length <= pages.length * 0.05, formatReport(report));
  });
});

describe('the comparison behind the measure', () => {
  test('spellings that mean the same are the same page', () => {
    const original = '---\ndescription: d\n---\n\n# T\n\n* one\n* _two_\n\n| a | b |\n|:-|-|\n| 1 | 2 |\n\nx\\_y <br>\n';
    const other = '---\ndescription: d\n---\n\n# T\n\n- one\n- *two*\n\n| a   | b |\n| - | - |\n| 1 | 2 |\n\nx\\_y\n';
    assert.equal(comparePages(original, other).changed, false);
    assert.equal(comparePages('Token: <code>eyJh.x</code>.\n', 'Token: `eyJh.x`.\n').changed, false);
    assert.equal(comparePages('********schema:******** https://x.test\n', '**schema:** https://x.test\n').changed, false);
    assert.equal(comparePages('**a _b_ c**\n', '**a** _b_ **c**\n').changed, true);
    assert.equal(comparePages('{% tabs %}\n{% tab title=" Kind" %}\nx\n{% endtab %}\n{% endtabs %}\n', '{% tabs %}\n{% tab title="Kind" %}\nx\n{% endtab %}\n{% endtabs %}\n').changed, false);
    // An expandable's text right under its summary (one HTML block, devtron's FAQ) or set apart by blank lines.
    const expandable = '<details>\n  <summary>Why?</summary>\n  Because it is.\n</details>\n';
    assert.equal(comparePages(expandable, '<details>\n\n<summary>Why?</summary>\n\nBecause it is.\n\n</details>\n').changed, false);
    assert.equal(comparePages(expandable, '<details>\n\n<summary>Why?</summary>\n\nBecause.\n\n</details>\n').changed, true);
  });
  test('a lost heading level, tag or front matter key is a change, named by its cause', () => {
    const result = comparePages('---\ncover: a.png\n---\n\n#### Four\n\n{% stepper %}\n{% step %}\nx\n{% endstep %}\n{% endstepper %}\n', '### Four\n\nx\n');
    assert.equal(result.changed, true);
    const causes = [...result.causes.keys()].join('; ');
    assert.match(causes, /front matter key cover/);
    assert.match(causes, /heading level/);
    assert.match(causes, /tag \{% stepper %\}/);
  });
  test('a relative link and its anchor survive the corpus resolver', () => {
    const page = '# T\n\nSee [setup](../guide/setup.md#install) and [here](./#top).\n';
    assert.equal(comparePages(page, roundTripPage('docs/README.md', page)).changed, false);
  });
});
