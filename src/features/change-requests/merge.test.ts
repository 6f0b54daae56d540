import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { edit, merge3, page, removeOnly, removeTree, sortById, T0, T1, T2 } from '../../../test/merge-scenarios.ts';

describe('merging pages changed on one side', () => {
  test('a page changed only in the change request is taken as it is', () => {
    const base = [page('A')];
    const theirs = edit(base, 'A', { title: 'Getting started', attributes: { emoji: '1f680' } });
    const result = merge3({ base, ours: base, theirs });
    assert.deepEqual(result.conflicts, []);
    assert.deepEqual(result.pages, new Map([['A', theirs[0]]]));
  });

  test('a page changed only on main is left as main has it', () => {
    const base = [page('A')];
    const ours = edit(base, 'A', { title: 'Renamed on main' });
    const result = merge3({ base, ours, theirs: base });
    assert.deepEqual(result.conflicts, []);
    assert.equal(result.pages.size, 0);
  });

  test('a page created in the change request is added', () => {
    const base = [page('A')];
    const theirs = [...base, page('B', { parentId: 'A' })];
    const result = merge3({ base, ours: base, theirs });
    assert.deepEqual(result.pages, new Map([['B', theirs[1]]]));
  });

  test('a page deleted in the change request is deleted on main', () => {
    const base = [page('A'), page('B', { position: 'a1' })];
    const result = merge3({ base, ours: base, theirs: removeTree(base, 'B') });
    assert.deepEqual(result.pages, new Map([['B', null]]));
  });

  test('the changes of different pages on each side are all kept', () => {
    const base = [page('A'), page('B', { position: 'a1' })];
    const ours = edit(base, 'A', { title: 'A on main' });
    const theirs = edit(base, 'B', { title: 'B in the change request' });
    const result = merge3({ base, ours, theirs });
    assert.deepEqual(
      result.final.map((p) => p.title),
      ['A on main', 'B in the change request'],
    );
  });
});

describe('merging a page changed on both sides', () => {
  test('changes of different fields are combined, with the later update time', () => {
    const base = [page('P'), page('Q', { position: 'a1' }), page('A', { attributes: { emoji: '1f600' } })];
    const ours = edit(base, 'A', { title: 'New title' }, T1);
    const theirs = edit(base, 'A', { parentId: 'P', position: 'a5', attributes: { emoji: '1f600', description: 'About A' } }, T2);
    const result = merge3({ base, ours, theirs });
    assert.deepEqual(result.conflicts, []);
    assert.deepEqual(result.pages.get('A'), {
      ...page('A'),
      title: 'New title',
      parentId: 'P',
      position: 'a5',
      attributes: { emoji: '1f600', description: 'About A' },
      updatedAt: T2,
    });
  });

  test('the same change made on both sides is not a conflict', () => {
    const base = [page('A')];
    const ours = edit(base, 'A', { title: 'Same' }, T1);
    const theirs = edit(base, 'A', { title: 'Same' }, T2);
    const result = merge3({ base, ours, theirs });
    assert.deepEqual(result.conflicts, []);
    assert.equal(result.final[0]!.title, 'Same');
  });

  test('two different new titles are a title conflict that names the page and both titles', () => {
    const base = [page('A', { title: 'Intro' })];
    const result = merge3({ base, ours: edit(base, 'A', { title: 'Welcome' }), theirs: edit(base, 'A', { title: 'Overview' }) });
    assert.equal(result.conflicts.length, 1);
    const [conflict] = result.conflicts;
    assert.equal(conflict!.kind, 'title');
    assert.equal(conflict!.pageId, 'A');
    assert.deepEqual([conflict!.base, conflict!.ours, conflict!.theirs], ['Intro', 'Welcome', 'Overview']);
    assert.equal(conflict!.message, '"Intro" was renamed "Welcome" by main and "Overview" by the change request.');
    assert.equal(result.pages.size, 0);
  });

  test('two different new slugs are a slug conflict', () => {
    const base = [page('A', { slug: 'intro' })];
    const result = merge3({ base, ours: edit(base, 'A', { slug: 'welcome' }), theirs: edit(base, 'A', { slug: 'overview' }) });
    assert.deepEqual(
      result.conflicts.map((c) => [c.kind, c.field]),
      [['slug', 'slug']],
    );
  });

  test('a page made a group on one side and a link on the other is a kind conflict', () => {
    const base = [page('A')];
    const result = merge3({ base, ours: edit(base, 'A', { kind: 'group' }), theirs: edit(base, 'A', { kind: 'link' }) });
    assert.deepEqual(
      result.conflicts.map((c) => c.kind),
      ['kind'],
    );
  });

  test('different attributes changed on each side are combined', () => {
    const base = [page('A', { attributes: { emoji: '1f600', hidden: false } })];
    const ours = edit(base, 'A', { attributes: { emoji: '1f680', hidden: false } });
    const theirs = edit(base, 'A', { attributes: { emoji: '1f600', hidden: true } });
    const result = merge3({ base, ours, theirs });
    assert.deepEqual(result.final[0]!.attributes, { emoji: '1f680', hidden: true });
  });

  test('one attribute changed differently on both sides is an attribute conflict', () => {
    const base = [page('A', { title: 'Intro', attributes: { emoji: '1f600' } })];
    const ours = edit(base, 'A', { attributes: { emoji: '1f680' } });
    const theirs = edit(base, 'A', { attributes: { emoji: '1f389' } });
    const [conflict, ...rest] = merge3({ base, ours, theirs }).conflicts;
    assert.equal(rest.length, 0);
    assert.equal(conflict!.kind, 'attribute');
    assert.equal(conflict!.field, 'attributes.emoji');
    assert.equal(conflict!.message, 'Main and the change request both changed the emoji of "Intro" ("1f680" and "1f389").');
  });

  test('an attribute removed on one side while the other changed something else is removed', () => {
    const base = [page('A', { attributes: { description: 'Old' } })];
    const ours = edit(base, 'A', { title: 'New' });
    const theirs = edit(base, 'A', { attributes: {} });
    const result = merge3({ base, ours, theirs });
    assert.deepEqual(result.final[0]!.attributes, {});
    assert.equal(result.final[0]!.title, 'New');
  });

  test('an attribute removed on one side and changed on the other is a conflict', () => {
    const base = [page('A', { attributes: { description: 'Old' } })];
    const ours = edit(base, 'A', { attributes: { description: 'New' } });
    const theirs = edit(base, 'A', { attributes: {} });
    const [conflict] = merge3({ base, ours, theirs }).conflicts;
    assert.equal(conflict!.kind, 'attribute');
    assert.match(conflict!.message, /\("New" and removed\)/);
  });

  test('moves to different parents are one move conflict that names both places', () => {
    const base = [page('A', { title: 'Intro', position: 'a0' }), page('G', { title: 'Guides', position: 'a1' }), page('R', { title: 'Reference', position: 'a2' })];
    const ours = edit(base, 'A', { parentId: 'G' });
    const theirs = edit(base, 'A', { parentId: 'R' });
    const result = merge3({ base, ours, theirs });
    assert.equal(result.conflicts.length, 1);
    assert.equal(result.conflicts[0]!.kind, 'move');
    assert.equal(result.conflicts[0]!.message, 'Main moved "Intro" under "Guides" and the change request moved it under "Reference".');
  });

  test('moves to different positions under one parent are a move conflict', () => {
    const base = [page('A', { position: 'a0' }), page('B', { position: 'a1' }), page('C', { position: 'a2' })];
    const result = merge3({ base, ours: edit(base, 'A', { position: 'a3' }), theirs: edit(base, 'A', { position: 'a1V' }) });
    assert.deepEqual(
      result.conflicts.map((c) => [c.kind, c.field]),
      [['move', 'placement']],
    );
    assert.match(result.conflicts[0]!.message, /both moved "A" to the top level, to different positions/);
  });

  test('a page moved on one side and renamed on the other is moved and renamed', () => {
    const base = [page('A'), page('G', { position: 'a1' })];
    const result = merge3({ base, ours: edit(base, 'A', { title: 'Renamed' }), theirs: edit(base, 'A', { parentId: 'G' }) });
    const merged = result.final.find((p) => p.id === 'A')!;
    assert.deepEqual([merged.parentId, merged.title], ['G', 'Renamed']);
  });

  test('all the conflicts of a page are reported, and nothing is written', () => {
    const base = [page('A', { position: 'a0' }), page('B', { position: 'a1' })];
    const ours = edit(edit(base, 'A', { title: 'X', slug: 'x' }), 'B', { title: 'B on main' });
    const theirs = edit(base, 'A', { title: 'Y', slug: 'y' });
    const result = merge3({ base, ours, theirs });
    assert.deepEqual(
      result.conflicts.map((c) => c.kind),
      ['title', 'slug'],
    );
    assert.equal(result.pages.size, 0);
    assert.equal(result.mergedMarkdown.size, 0);
  });

  test('the sides can be named for the messages', () => {
    const base = [page('A', { title: 'Intro' })];
    const result = merge3({
      base,
      ours: edit(base, 'A', { title: 'X' }),
      theirs: edit(base, 'A', { title: 'Y' }),
      options: { labels: { ours: 'change request #4', theirs: 'main' } },
    });
    assert.equal(result.conflicts[0]!.message, '"Intro" was renamed "X" by change request #4 and "Y" by main.');
  });
});

describe('merging documents', () => {
  const documents = {
    base: '# Setup\n\nInstall the tool.\n\n## Usage\n\nRun it.\n',
    main: '# Setup\n\nInstall the tool with npm.\n\n## Usage\n\nRun it.\n',
    cr: '# Setup\n\nInstall the tool.\n\n## Usage\n\nRun it every day.\n',
    crSameLine: '# Setup\n\nInstall the tool with yarn.\n\n## Usage\n\nRun it.\n',
    both: '# Setup\n\nInstall the tool with npm.\n\n## Usage\n\nRun it every day.\n',
  };

  test('edits of different parts of one document both survive', () => {
    const base = [page('A', { documentId: 'base' })];
    const result = merge3({ base, ours: edit(base, 'A', { documentId: 'main' }), theirs: edit(base, 'A', { documentId: 'cr' }), documents });
    assert.deepEqual(result.conflicts, []);
    assert.equal(result.mergedMarkdown.get('A'), documents.both);
    // The caller stores the merged markdown and sets the document id; until then the page keeps main's.
    assert.equal(result.pages.get('A')!.documentId, 'main');
  });

  test('edits of the same sentence are a content conflict with the text marked for resolution', () => {
    const base = [page('A', { title: 'Setup', documentId: 'base' })];
    const result = merge3({ base, ours: edit(base, 'A', { documentId: 'main' }), theirs: edit(base, 'A', { documentId: 'crSameLine' }), documents });
    assert.equal(result.conflicts.length, 1);
    const [conflict] = result.conflicts;
    assert.equal(conflict!.kind, 'content');
    assert.equal(conflict!.message, 'Main and the change request both edited the same part of "Setup".');
    assert.deepEqual([conflict!.base, conflict!.ours, conflict!.theirs], [documents.base, documents.main, documents.crSameLine]);
    assert.equal(
      conflict!.markedText,
      '# Setup\n\n<<<<<<< main\nInstall the tool with npm.\n||||||| base\nInstall the tool.\n=======\nInstall the tool with yarn.\n>>>>>>> the change request\n\n## Usage\n\nRun it.\n',
    );
  });

  test('a document changed on one side only is taken without reading any text', () => {
    const base = [page('A', { documentId: 'base' })];
    const result = merge3({ base, ours: edit(base, 'A', { title: 'T' }), theirs: edit(base, 'A', { documentId: 'cr' }), documents });
    assert.equal(result.documentReads, 0);
    assert.equal(result.pages.get('A')!.documentId, 'cr');
    assert.equal(result.mergedMarkdown.size, 0);
  });

  test('when the text merge gives one side’s text, that side’s document is reused', () => {
    // The change request made main's edit and one more: the merge is the change request's document.
    const base = [page('A', { documentId: 'base' })];
    const result = merge3({ base, ours: edit(base, 'A', { documentId: 'main' }), theirs: edit(base, 'A', { documentId: 'both' }), documents });
    assert.equal(result.documentReads, 1);
    assert.deepEqual(result.conflicts, []);
    assert.equal(result.pages.get('A')!.documentId, 'both');
    assert.equal(result.mergedMarkdown.size, 0);
  });

  test('a document emptied on one side and edited on the other is a content conflict', () => {
    const base = [page('A', { documentId: 'base' })];
    const result = merge3({ base, ours: edit(base, 'A', { documentId: null }), theirs: edit(base, 'A', { documentId: 'cr' }), documents });
    assert.deepEqual(result.conflicts.map((c) => c.kind), ['content']);
  });
});

describe('merging deletions', () => {
  test('a page deleted on main and changed in the change request is a delete-modify conflict', () => {
    const base = [page('A', { title: 'Intro' })];
    const result = merge3({ base, ours: [], theirs: edit(base, 'A', { title: 'Intro!' }) });
    assert.equal(result.conflicts.length, 1);
    const [conflict] = result.conflicts;
    assert.equal(conflict!.kind, 'delete-modify');
    assert.equal(conflict!.message, 'Main deleted "Intro!" and the change request changed it.');
    assert.equal(conflict!.ours, null);
    assert.deepEqual(conflict!.base, base[0]);
  });

  test('a page changed on main and deleted in the change request is a modify-delete conflict', () => {
    const base = [page('A', { title: 'Intro' })];
    const [conflict] = merge3({ base, ours: edit(base, 'A', { attributes: { hidden: true } }), theirs: [] }).conflicts;
    assert.equal(conflict!.kind, 'modify-delete');
    assert.equal(conflict!.message, 'The change request deleted "Intro" and main changed it.');
  });

  test('a page deleted on both sides is deleted, with nothing left to write', () => {
    const base = [page('A'), page('B', { position: 'a1' })];
    const result = merge3({ base, ours: removeTree(base, 'B'), theirs: removeTree(base, 'B') });
    assert.deepEqual(result.conflicts, []);
    assert.equal(result.pages.size, 0);
    assert.deepEqual(result.final, [base[0]]);
  });

  test('a page deleted on one side and only saved again, unchanged, on the other is deleted', () => {
    const base = [page('A')];
    const result = merge3({ base, ours: edit(base, 'A', {}, T2), theirs: [] });
    assert.deepEqual(result.conflicts, []);
    assert.deepEqual(result.pages, new Map([['A', null]]));
  });

  test('deleting a page deletes the pages inside it', () => {
    const base = [page('P'), page('C', { parentId: 'P' }), page('G', { parentId: 'C' }), page('Other', { position: 'a1' })];
    // Even if the change request recorded only the deletion of the top page, the subtree goes with it.
    const result = merge3({ base, ours: base, theirs: removeOnly(base, 'P') });
    assert.deepEqual(result.conflicts, []);
    assert.deepEqual(
      result.final.map((p) => p.id),
      ['Other'],
    );
  });

  test('deleting a page whose descendant the other side edited is a conflict', () => {
    const base = [page('P', { title: 'Guides' }), page('C', { parentId: 'P' }), page('G', { parentId: 'C', title: 'Deep page' })];
    const ours = edit(base, 'G', { title: 'Deep page, edited' });
    const whole = merge3({ base, ours, theirs: removeTree(base, 'P') });
    assert.deepEqual(
      whole.conflicts.map((c) => [c.pageId, c.kind]),
      [['G', 'modify-delete']],
    );
    const topOnly = merge3({ base, ours, theirs: removeOnly(base, 'P') });
    assert.deepEqual(
      topOnly.conflicts.map((c) => [c.pageId, c.kind]),
      [['G', 'modify-delete']],
    );
    assert.equal(
      topOnly.conflicts[0]!.message,
      'The change request deleted "Guides" with the pages inside it, and main changed "Deep page, edited", which is inside it.',
    );
    assert.equal(topOnly.pages.size, 0);
  });
});

describe('checking the merged tree', () => {
  test('a page moved under a page the other side deleted is an orphan conflict', () => {
    const base = [page('A', { title: 'Intro' }), page('G', { title: 'Guides', position: 'a1' })];
    const result = merge3({ base, ours: removeTree(base, 'G'), theirs: edit(base, 'A', { parentId: 'G' }) });
    assert.deepEqual(
      result.conflicts.map((c) => [c.pageId, c.kind]),
      [['A', 'orphan']],
    );
    assert.equal(result.conflicts[0]!.message, 'The change request moved "Intro" under "Guides", which main deleted.');
  });

  test('a page added under a page the other side deleted is an orphan conflict', () => {
    const base = [page('G', { title: 'Guides' })];
    const theirs = [...base, page('N', { title: 'New guide', parentId: 'G' })];
    const result = merge3({ base, ours: [], theirs });
    assert.deepEqual(
      result.conflicts.map((c) => [c.pageId, c.kind]),
      [['N', 'orphan']],
    );
    assert.equal(result.conflicts[0]!.message, 'The change request added "New guide" under "Guides", which main deleted.');
  });

  test('A moved into B on one side and B into A on the other is a cycle conflict', () => {
    const base = [page('A', { title: 'Alpha' }), page('B', { title: 'Beta', position: 'a1' })];
    const result = merge3({ base, ours: edit(base, 'A', { parentId: 'B' }), theirs: edit(base, 'B', { parentId: 'A' }) });
    assert.equal(result.conflicts.length, 1);
    const [conflict] = result.conflicts;
    assert.equal(conflict!.kind, 'cycle');
    assert.deepEqual([...conflict!.pageIds!].sort(), ['A', 'B']);
    assert.match(conflict!.message, /main moved "Alpha" under "Beta"/i);
    assert.match(conflict!.message, /the change request moved "Beta" under "Alpha"/i);
    assert.equal(result.pages.size, 0);
  });

  test('a cycle through a longer chain of pages is found', () => {
    const base = [page('A'), page('B', { position: 'a1' }), page('C', { parentId: 'B' })];
    // Main moves A under C (inside B); the change request moves B under A.
    const result = merge3({ base, ours: edit(base, 'A', { parentId: 'C' }), theirs: edit(base, 'B', { parentId: 'A' }) });
    assert.deepEqual(
      result.conflicts.map((c) => c.kind),
      ['cycle'],
    );
    assert.deepEqual([...result.conflicts[0]!.pageIds!].sort(), ['A', 'B', 'C']);
  });

  test('two pages added with the same slug under one parent: the change request’s page becomes slug-2', () => {
    const base = [page('P')];
    const ours = [...base, page('M', { parentId: 'P', slug: 'setup' })];
    const theirs = [...base, page('C', { parentId: 'P', slug: 'setup', position: 'a1' })];
    const result = merge3({ base, ours, theirs });
    assert.deepEqual(result.conflicts, []);
    assert.equal(result.pages.get('C')!.slug, 'setup-2');
    assert.deepEqual(result.renamedSlugs, [{ pageId: 'C', from: 'setup', to: 'setup-2' }]);
  });

  test('a page moved next to a sibling with its slug gets the next free suffix', () => {
    const base = [page('P'), page('X', { slug: 'intro', position: 'a1' }), page('Old', { parentId: 'P', slug: 'intro-2' })];
    const ours = [...base, page('M', { parentId: 'P', slug: 'intro', position: 'a1' })];
    const theirs = edit(base, 'X', { parentId: 'P', position: 'a2' });
    const result = merge3({ base, ours, theirs });
    assert.equal(result.pages.get('X')!.slug, 'intro-3');
  });

  test('a slug given by a rename in the change request is suffixed too', () => {
    const base = [page('A', { slug: 'a' }), page('B', { slug: 'b', position: 'a1' })];
    const result = merge3({ base, ours: edit(base, 'A', { slug: 'start' }), theirs: edit(base, 'B', { slug: 'start' }) });
    assert.equal(result.pages.get('B')!.slug, 'start-2');
  });

  test('when updating a change request from main, its own page is the one renamed', () => {
    const base = [page('P')];
    const crPages = [...base, page('C', { parentId: 'P', slug: 'setup' })];
    const mainPages = [...base, page('M', { parentId: 'P', slug: 'setup', position: 'a1' })];
    const result = merge3({ base, ours: crPages, theirs: mainPages, options: { renameSide: 'ours' } });
    assert.deepEqual(result.renamedSlugs, [{ pageId: 'C', from: 'setup', to: 'setup-2' }]);
    assert.deepEqual(
      sortById(result.final).map((p) => [p.id, p.slug]),
      [
        ['C', 'setup-2'],
        ['M', 'setup'],
        ['P', 'p'],
      ],
    );
  });

  test('pages inserted at the same place on both sides are both kept, ordered by key then id', () => {
    const base = [page('A', { position: 'a0' }), page('Z', { position: 'a2' })];
    const ours = [...base, page('n2', { title: 'main’s', position: 'a1' })];
    const theirs = [...base, page('n1', { title: 'change request’s', position: 'a1' })];
    const result = merge3({ base, ours, theirs });
    assert.deepEqual(result.conflicts, []);
    assert.deepEqual(result.childrenTitles(null), ['A', 'change request’s', 'main’s', 'Z']);
  });

  test('pages inserted between the same siblings with different keys keep their key order', () => {
    const base = [page('A', { position: 'a0' }), page('Z', { position: 'a2' })];
    const ours = [...base, page('m', { position: 'a1V' })];
    const theirs = [...base, page('t', { position: 'a1' })];
    assert.deepEqual(merge3({ base, ours, theirs }).childrenTitles(null), ['A', 't', 'm', 'Z']);
  });

  test('created and modified timestamps follow the page', () => {
    const base = [page('A')];
    const theirs = [...base, page('B', { createdAt: T1, updatedAt: T1, position: 'a1' })];
    const result = merge3({ base, ours: edit(base, 'A', { title: 'x' }, T2), theirs });
    assert.deepEqual(
      result.final.map((p) => [p.id, p.createdAt, p.updatedAt]),
      [
        ['A', T0, T2],
        ['B', T1, T1],
      ],
    );
  });
});
