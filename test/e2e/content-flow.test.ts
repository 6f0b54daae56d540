import { after, before, describe, test } from 'node:test';
import { png } from '../fixtures/png.ts';
import assert from 'node:assert/strict';
import * as gitbook from '@gitbook/api';
import type * as Generated from '../../node_modules/@gitbook/api/dist/client.d.ts';
import { officialClient, rejectsWith, type OfficialClient } from './gitbook-client.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';
import { OfficialSpec, SpecViolation, specCheckedFetch, type CheckedExchange } from './spec-validator.ts';

/**
 * The stories of the content and change-request issues, told over real HTTP with the official client: a user
 * writes a tree of pages in a change request, reads it back in both formats and merges it; two users edit one
 * page in two change requests. Every response goes through the official spec (specCheckedFetch), including
 * those of updateChangeRequestContent, which the pinned client and spec are too old to know (see `writeContent`).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

// The enum's types come by path, as in gitbook-client.ts.
const { ChangeRequestStatus } = gitbook as unknown as typeof Generated;

const SUITE_TIMEOUT_MS = 120_000;
const TEARDOWN_TIMEOUT_MS = 30_000;

/** A page tree as compact strings: `title(child,child)`. */
function outline(pages: Json[]): string[] {
  return pages.map((p) => (p.pages?.length ? `${p.title}(${outline(p.pages).join(',')})` : p.title));
}

/** Every block type of a document, depth first. */
function blockTypes(document: Json): string[] {
  const out: string[] = [];
  const walk = (nodes: Json[] = []) => {
    for (const node of nodes) {
      if (node.object === 'block') out.push(node.type);
      walk(node.nodes);
      for (const fragment of node.fragments ?? []) walk(fragment.nodes);
    }
  };
  walk(document?.nodes);
  return out;
}

/** Every page of a tree, flattened. */
function flatten(pages: Json[]): Json[] {
  return pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);
}

describe('content and change requests end to end, through the official client', { timeout: SUITE_TIMEOUT_MS }, () => {
  let t: TestServer;
  let endpoint: string;
  const spec = OfficialSpec.load();
  const log: CheckedExchange[] = [];
  const checkedFetch = specCheckedFetch(spec, log);

  const client = (token: string): OfficialClient => officialClient({ endpoint, authToken: token, serviceBinding: { fetch: checkedFetch } });

  before(async () => {
    t = await startServer();
    endpoint = await listenOnRandomPort(t);
  });
  after(() => t.close(), { timeout: TEARDOWN_TIMEOUT_MS });

  /**
   * updateChangeRequestContent (POST CR/content) is official since @gitbook/api 0.202.0; the pinned 0.143.2 has
   * neither the method nor the operation. It goes by plain fetch, and its answer is checked against the pinned
   * spec's own schemas: the ChangeRequest as getChangeRequestById declares it, inserted files as
   * getFileInChangeRequestById does, and an error as the spec's shared error responses.
   */
  async function writeContent(token: string, spaceId: string, crId: string, changes: unknown[], options: { compat?: boolean } = {}) {
    const query = options.compat === undefined ? '' : `?compat=${options.compat}`;
    const response = await fetch(`${endpoint}/v1/spaces/${spaceId}/change-requests/${crId}/content${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ changes }),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    const body = JSON.parse(text) as Json;
    const asDeclared = (path: string, json: unknown) => {
      const checked = spec.check({ method: 'GET', path, status: response.status, headers: response.headers, text: JSON.stringify(json) });
      log.push({ ...checked, operationId: 'updateChangeRequestContent', method: 'POST', path: `/spaces/${spaceId}/change-requests/${crId}/content` });
      if (checked.problems.length > 0) throw new SpecViolation(checked);
    };
    const crPath = `/spaces/${spaceId}/change-requests/${crId}`;
    if (response.status !== 200) asDeclared(crPath, body);
    else if (options.compat === false) {
      asDeclared(crPath, body.changeRequest);
      for (const file of body.insertedFiles ?? []) asDeclared(`${crPath}/content/files/${file.id}`, file);
      // The list of affected pages is newer than the pinned spec: its shape as @gitbook/api 0.202.0 gives it.
      for (const change of body.changes) {
        if (change.object === 'deleted_page') assert.equal(typeof change.page, 'string', JSON.stringify(change));
        else {
          assert.ok(['created_page', 'updated_page'].includes(change.object), JSON.stringify(change));
          assert.equal(change.page.object, 'page');
          assert.equal(typeof change.page.id, 'string');
          assert.ok(URL.canParse(change.page.urls.location), JSON.stringify(change));
        }
      }
    } else asDeclared(crPath, body);
    return { status: response.status, body };
  }

  async function write(token: string, spaceId: string, crId: string, changes: unknown[]) {
    const res = await writeContent(token, spaceId, crId, changes, { compat: false });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { changeRequest: Json; changes: Json[]; insertedFiles: Json[] };
  }

  /** The id of the page the batch created for `ref`. */
  function created(result: { changes: Json[] }, ref: string): string {
    const change = result.changes.find((c) => c.object === 'created_page' && c.ref === ref);
    assert.ok(change, `no created_page for ref ${ref}: ${JSON.stringify(result.changes)}`);
    return change.page.id;
  }

  describe('issue 3: a user writes a tree of pages in a change request, reads it back and merges it', () => {
    test('pages with links, images, tables, hints, code and lists are written, read in both formats, round-tripped, merged and read on the space', async () => {
      const owner = await t.outsider();
      const api = client(owner.token);
      const { data: space } = await api.orgs.createSpace(owner.organizationId, { title: 'Product docs' });
      const { data: cr, status } = await api.spaces.createChangeRequest(space.id, { subject: 'First draft' });
      assert.equal(status, 201);
      assert.equal(cr.revisionInitial, space.revision);

      // One batch: a logo, then pages whose markdown links each other and the logo by their refs, in any order.
      const logo = png(3, 2);
      const first = await write(owner.token, space.id, cr.id, [
        {
          operation: 'insert_page',
          ref: 'welcome',
          title: 'Welcome',
          document: {
            markdown: [
              'Welcome to **Quire**, _the_ documentation ~~wiki~~ platform with `code`.',
              '',
              '![Quire logo](./logo)',
              '',
              'Start with the [guides](./guides.md), then the [reference](./reference.md#endpoints).',
              '',
              '{% hint style="info" %}',
              'Every change goes through a change request.',
              '{% endhint %}',
              '',
            ].join('\n'),
          },
        },
        {
          operation: 'insert_page',
          ref: 'guides',
          title: 'Guides',
          document: { markdown: 'How to get going:\n\n* [Install](./install.md)\n* [Configure](./configure.md)\n  * the basics\n  * the [reference](./reference.md)\n' },
        },
        {
          operation: 'insert_page',
          ref: 'install',
          into: 'guides',
          title: 'Install',
          document: {
            markdown: [
              '## Requirements',
              '',
              '1. Node 20',
              '2. A database',
              '',
              '```bash',
              'npm install',
              'npm start',
              '```',
              '',
              '| Database | Supported |',
              '| --- | --- |',
              '| SQLite | yes |',
              '| PostgreSQL | yes |',
              '',
              'Then [configure](./configure.md) it.',
              '',
            ].join('\n'),
          },
        },
        {
          operation: 'insert_page',
          ref: 'configure',
          into: 'guides',
          title: 'Configure',
          document: {
            markdown: [
              '- [x] Set `DATA_DIR`',
              '- [ ] Set `PUBLIC_URL`',
              '',
              '> Settings are read once, at start.',
              '',
              '{% hint style="warning" %}',
              'Back up the database first.',
              '{% endhint %}',
              '',
              'Back to [install](./install.md).',
              '',
            ].join('\n'),
          },
        },
        {
          operation: 'insert_page',
          ref: 'reference',
          title: 'Reference',
          document: { markdown: '## Endpoints\n\n| Method | Path |\n| --- | --- |\n| GET | `/v1/spaces` |\n\n***\n\nSee the ![logo](./logo) too.\n' },
        },
        { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: logo.toString('base64') }] },
      ]);
      const ids = {
        welcome: created(first, 'welcome'),
        guides: created(first, 'guides'),
        install: created(first, 'install'),
        configure: created(first, 'configure'),
        reference: created(first, 'reference'),
      };
      assert.equal(first.insertedFiles.length, 1);
      const fileId = first.insertedFiles[0].id as string;
      assert.equal(first.changeRequest.id, cr.id);
      const location = await checkedFetch(first.changes.find((c) => c.ref === 'install').page.urls.location, { headers: { authorization: `Bearer ${owner.token}` } });
      assert.equal(((await location.json()) as Json).id, ids.install, 'urls.location answers the created page');
      assert.notEqual(first.changeRequest.revision, cr.revision);

      // A second batch, with relative links found by their paths in the change request's tree.
      const second = await write(owner.token, space.id, cr.id, [
        {
          operation: 'insert_page',
          ref: 'troubleshooting',
          into: ids.guides,
          title: 'Troubleshooting',
          document: { markdown: 'Reinstall ([install](./install.md)), read the [reference](../reference.md) or [ask](https://example.com/help).\n' },
        },
      ]);
      const troubleshooting = created(second, 'troubleshooting');

      // The tree, by the change request's page list and its revision.
      const { data: listed } = await api.spaces.listPagesInChangeRequest(space.id, cr.id);
      assert.deepEqual(outline(listed.pages), ['Welcome', 'Guides(Install,Configure,Troubleshooting)', 'Reference']);
      const { data: revision } = await api.spaces.getRevisionOfChangeRequestById(space.id, cr.id);
      assert.equal(revision.id, second.changeRequest.revision);
      assert.deepEqual(revision.parents, [first.changeRequest.revision]);
      assert.deepEqual(outline(revision.pages), outline(listed.pages));
      assert.deepEqual(revision.files.map((f) => f.id), [fileId]);

      // Both formats, by id and by path.
      const read = async (pageId: string) => {
        const { data: asMarkdown } = await api.spaces.getPageInChangeRequestById(space.id, cr.id, pageId, { format: 'markdown' });
        const { data: asDocument } = await api.spaces.getPageInChangeRequestById(space.id, cr.id, pageId, { format: 'document' });
        return { markdown: (asMarkdown as Json).markdown as string, document: (asDocument as Json).document, page: asDocument as Json };
      };
      const all = Object.entries({ ...ids, troubleshooting });
      const pages = Object.fromEntries(await Promise.all(all.map(async ([name, id]) => [name, await read(id)] as const)));

      const welcome = pages.welcome!;
      assert.ok(welcome.markdown.includes('**Quire**'), welcome.markdown);
      assert.ok(welcome.markdown.includes(`](/files/${fileId})`), welcome.markdown);
      assert.ok(welcome.markdown.includes(`[guides](/pages/${ids.guides})`), welcome.markdown);
      assert.ok(welcome.markdown.includes(`[reference](/pages/${ids.reference}#endpoints)`), welcome.markdown);
      assert.ok(welcome.markdown.includes('{% hint style="info" %}'), welcome.markdown);
      assert.equal(welcome.document.object, 'document');
      assert.ok(blockTypes(welcome.document).includes('hint'), JSON.stringify(blockTypes(welcome.document)));
      assert.ok(blockTypes(welcome.document).includes('images'), JSON.stringify(blockTypes(welcome.document)));

      const install = pages.install!;
      assert.deepEqual(
        ['heading-1', 'list-ordered', 'code', 'table'].filter((type) => !blockTypes(install.document).includes(type)),
        [],
        `install has ${JSON.stringify(blockTypes(install.document))}`,
      );
      assert.ok(install.markdown.includes('```bash\nnpm install\nnpm start\n```'), install.markdown);
      assert.match(install.markdown, /\| *Database *\| *Supported *\|/);
      assert.ok(install.markdown.includes(`[configure](/pages/${ids.configure})`), install.markdown);
      assert.equal(install.page.path, 'guides/install');

      const configure = pages.configure!;
      assert.ok(blockTypes(configure.document).includes('list-tasks'), JSON.stringify(blockTypes(configure.document)));
      assert.ok(blockTypes(configure.document).includes('blockquote'), JSON.stringify(blockTypes(configure.document)));
      assert.ok(configure.markdown.includes('- [x] Set `DATA_DIR`'), configure.markdown);
      assert.ok(configure.markdown.includes('{% hint style="warning" %}'), configure.markdown);
      assert.ok(configure.markdown.includes(`[install](/pages/${ids.install})`), configure.markdown);

      const guides = pages.guides!;
      assert.ok(blockTypes(guides.document).includes('list-unordered'));
      assert.ok(guides.markdown.includes(`[Install](/pages/${ids.install})`), guides.markdown);
      assert.ok(guides.markdown.includes(`[reference](/pages/${ids.reference})`), guides.markdown);
      assert.ok(blockTypes(pages.reference!.document).includes('table'));
      assert.ok(pages.reference!.markdown.includes(`/files/${fileId}`), pages.reference!.markdown);

      const relative = pages.troubleshooting!.markdown;
      assert.ok(relative.includes(`[install](/pages/${ids.install})`), relative);
      assert.ok(relative.includes(`[reference](/pages/${ids.reference})`), relative);
      assert.ok(relative.includes('[ask](https://example.com/help)'), relative);

      const { data: byPath } = await api.spaces.getPageInChangeRequestByPath(space.id, cr.id, 'guides/install', { format: 'markdown' });
      assert.equal(byPath.id, ids.install);
      assert.equal((byPath as Json).markdown, install.markdown);
      const { data: byPathDocument } = await api.spaces.getPageInChangeRequestByPath(space.id, cr.id, 'guides/install');
      assert.deepEqual((byPathDocument as Json).document, install.document);

      // The image is a file of the change request, measured, and its downloadURL serves the bytes.
      const { data: files } = await api.spaces.listFilesInChangeRequestById(space.id, cr.id);
      assert.equal(files.items.length, 1);
      const { data: file } = await api.spaces.getFileInChangeRequestById(space.id, cr.id, fileId);
      assert.deepEqual(files.items[0], file);
      assert.equal(file.name, 'logo.png');
      assert.equal(file.contentType, 'image/png');
      assert.equal(file.size, logo.length);
      assert.deepEqual(file.dimensions, { width: 3, height: 2 });
      const download = await fetch(file.downloadURL);
      assert.equal(download.status, 200);
      assert.match(download.headers.get('content-type') ?? '', /^image\/png/);
      assert.deepEqual(Buffer.from(await download.arrayBuffer()), logo);

      // The markdown read back, written again, gives the same document and the same markdown.
      await write(
        owner.token,
        space.id,
        cr.id,
        all.map(([name, id]) => ({ operation: 'update_page', page: id, document: { markdown: pages[name]!.markdown } })),
      );
      for (const [name, id] of all) {
        const again = await read(id);
        assert.deepEqual(again.document, pages[name]!.document, `the document of ${name} changed in the round trip`);
        assert.equal(again.markdown, pages[name]!.markdown, `the markdown of ${name} changed in the round trip`);
        assert.equal(again.page.title, pages[name]!.page.title);
      }

      // Nothing reaches the space before the merge.
      const { data: before } = await api.spaces.listPages(space.id);
      assert.deepEqual(before.pages, []);

      const { data: merged } = await api.spaces.mergeChangeRequest(space.id, cr.id);
      assert.equal(merged.result, 'merge');
      const { data: afterMerge } = await api.spaces.getChangeRequestById(space.id, cr.id);
      assert.equal(afterMerge.status, 'merged');
      assert.equal(afterMerge.revisionMerged, merged.revision);

      // The space now shows the same content, by every read.
      const { data: current } = await api.spaces.getCurrentRevision(space.id);
      assert.equal(current.id, merged.revision);
      assert.equal(current.type, 'merge');
      const { data: mainPages } = await api.spaces.listPages(space.id);
      assert.deepEqual(outline(mainPages.pages), ['Welcome', 'Guides(Install,Configure,Troubleshooting)', 'Reference']);
      assert.deepEqual(flatten(mainPages.pages).map((p) => p.id), [ids.welcome, ids.guides, ids.install, ids.configure, troubleshooting, ids.reference]);
      for (const [name, id] of all) {
        const { data: asMarkdown } = await api.spaces.getPageById(space.id, id, { format: 'markdown' });
        const { data: asDocument } = await api.spaces.getPageById(space.id, id);
        assert.equal((asMarkdown as Json).markdown, pages[name]!.markdown, `${name} on the space`);
        assert.deepEqual((asDocument as Json).document, pages[name]!.document, `${name} on the space`);
      }
      const { data: mainByPath } = await api.spaces.getPageByPath(space.id, 'guides/configure', { format: 'markdown' });
      assert.equal(mainByPath.id, ids.configure);
      assert.equal((mainByPath as Json).markdown, configure.markdown);
      const { data: mainFiles } = await api.spaces.listFiles(space.id);
      assert.deepEqual(mainFiles.items, [file]);
      const { data: mainFile } = await api.spaces.getFileById(space.id, fileId);
      assert.deepEqual(mainFile, file);
      const { data: byId } = await api.spaces.getRevisionById(space.id, merged.revision);
      assert.deepEqual(byId, current);
      // Quire names who made a revision (an extension): here, who merged it.
      assert.equal((byId as Json).authorId, owner.userId);
      // The change request's revisions stay readable as they were.
      const { data: draft } = await api.spaces.getRevisionById(space.id, first.changeRequest.revision);
      assert.deepEqual(outline(draft.pages), ['Welcome', 'Guides(Install,Configure)', 'Reference']);
    });

    test('applyTemplateToSpace adds a template page tree to the space; an unknown template is a 400', async () => {
      const owner = await t.outsider();
      const api = client(owner.token);
      const { data: space } = await api.orgs.createSpace(owner.organizationId, { title: 'From a template' });
      const applied = await api.spaces.applyTemplateToSpace(space.id, { id: 'product-docs' });
      assert.equal(applied.status, 201);
      const { data: pages } = await api.spaces.listPages(space.id);
      assert.ok(flatten(pages.pages).length > 1, JSON.stringify(outline(pages.pages)));
      const { data: revision } = await api.spaces.getCurrentRevision(space.id);
      assert.notEqual(revision.id, space.revision);
      const firstPage = flatten(pages.pages).find((p) => p.type === 'document')!;
      const { data: page } = await api.spaces.getPageById(space.id, firstPage.id, { format: 'markdown' });
      assert.equal(typeof (page as Json).markdown, 'string');

      await api.spaces.applyTemplateToSpace(space.id, { id: 'blank' });
      const { data: withBlank } = await api.spaces.listPages(space.id);
      assert.equal(withBlank.pages.length, pages.pages.length + 1);
      await rejectsWith(api.spaces.applyTemplateToSpace(space.id, { id: 'no-such-template' }), 400);
      const reader = await t.member('read', owner.organizationId);
      await rejectsWith(client(reader.token).spaces.applyTemplateToSpace(space.id, { id: 'blank' }), 403);
    });

    test('an invalid batch is a 400 naming the change, and writes nothing', async () => {
      const owner = await t.outsider();
      const api = client(owner.token);
      const { data: space } = await api.orgs.createSpace(owner.organizationId, { title: 'Atomic' });
      const { data: cr } = await api.spaces.createChangeRequest(space.id, {});
      const res = await writeContent(owner.token, space.id, cr.id, [
        { operation: 'insert_page', title: 'Fine', document: { markdown: 'fine\n' } },
        { operation: 'update_page', page: 'no-such-page', title: 'Nope' },
      ]);
      assert.equal(res.status, 400);
      assert.match(res.body.error.message, /changes\[1\]/);
      const { data: unchanged } = await api.spaces.getChangeRequestById(space.id, cr.id);
      assert.equal(unchanged.revision, cr.revision);
      const ok = await writeContent(owner.token, space.id, cr.id, [{ operation: 'insert_page', title: 'Fine', document: {} }]);
      assert.equal(ok.status, 200);
      assert.equal(ok.body.object, 'change-request', 'compat=true (the default) answers the change request');
    });
  });

  describe('issue 4: two users edit one page in two change requests', () => {
    const PARAGRAPHS = ['The first paragraph.', 'The second paragraph.', 'The third paragraph.'];

    /** A space of Alice's organization with one page of three paragraphs on its main line; Bob may edit and merge. */
    async function sharedPage() {
      const alice = await t.outsider();
      const bob = await t.member('review', alice.organizationId);
      const { data: space } = await client(alice.token).orgs.createSpace(alice.organizationId, { title: 'Handbook' });
      const { data: cr } = await client(alice.token).spaces.createChangeRequest(space.id, { subject: 'Seed' });
      const result = await write(alice.token, space.id, cr.id, [{ operation: 'insert_page', ref: 'p', title: 'Policies', document: { markdown: PARAGRAPHS.join('\n\n') + '\n' } }]);
      const { data: merged } = await client(alice.token).spaces.mergeChangeRequest(space.id, cr.id);
      assert.equal(merged.result, 'merge');
      return { alice, bob, spaceId: space.id, pageId: created(result, 'p') };
    }

    /** Opens a change request as `token` and rewrites paragraph `index` of the page in it. */
    async function edit(token: string, s: { spaceId: string; pageId: string }, edits: Record<number, string>) {
      const { data: cr } = await client(token).spaces.createChangeRequest(s.spaceId, { subject: `Edit ${Object.keys(edits).join(',')}` });
      const paragraphs = PARAGRAPHS.map((text, i) => edits[i] ?? text);
      await write(token, s.spaceId, cr.id, [{ operation: 'update_page', page: s.pageId, document: { markdown: paragraphs.join('\n\n') + '\n' } }]);
      return cr;
    }

    async function mainMarkdown(token: string, s: { spaceId: string; pageId: string }): Promise<string> {
      const { data } = await client(token).spaces.getPageById(s.spaceId, s.pageId, { format: 'markdown' });
      return (data as Json).markdown;
    }

    test('edits of different paragraphs both merge, and both are in the space', async () => {
      const s = await sharedPage();
      const crA = await edit(s.alice.token, s, { 0: 'Alice rewrote the first paragraph.' });
      const crB = await edit(s.bob.token, s, { 2: 'Bob rewrote the third paragraph.' });

      const { data: mergedA } = await client(s.alice.token).spaces.mergeChangeRequest(s.spaceId, crA.id);
      assert.equal(mergedA.result, 'merge');
      const { data: outdatedB } = await client(s.bob.token).spaces.getChangeRequestById(s.spaceId, crB.id);
      assert.equal(outdatedB.outdated, true);
      const { data: mergedB } = await client(s.bob.token).spaces.mergeChangeRequest(s.spaceId, crB.id);
      assert.equal(mergedB.result, 'merge');

      assert.equal(await mainMarkdown(s.alice.token, s), 'Alice rewrote the first paragraph.\n\nThe second paragraph.\n\nBob rewrote the third paragraph.\n');
      const { data: revision } = await client(s.alice.token).spaces.getCurrentRevision(s.spaceId);
      assert.equal(revision.id, mergedB.revision);
      assert.equal(revision.parents[0], mergedA.revision);
      const { data: b } = await client(s.bob.token).spaces.getChangeRequestById(s.spaceId, crB.id);
      assert.equal(b.status, 'merged');
      assert.equal(b.createdBy.id, s.bob.userId);
    });

    test('a real conflict (the same paragraph) answers "conflicts", leaves the space unchanged and loses neither side', async () => {
      const s = await sharedPage();
      const crA = await edit(s.alice.token, s, { 1: 'Alice says the second paragraph is hers.' });
      const crB = await edit(s.bob.token, s, { 1: 'Bob says the second paragraph is his.' });
      await client(s.alice.token).spaces.mergeChangeRequest(s.spaceId, crA.id);
      const { data: space } = await client(s.alice.token).spaces.getCurrentRevision(s.spaceId);
      const mainBefore = await mainMarkdown(s.alice.token, s);

      const { data: refused } = await client(s.bob.token).spaces.mergeChangeRequest(s.spaceId, crB.id);
      assert.equal(refused.result, 'conflicts');
      assert.equal(refused.revision, space.id);
      const { data: after } = await client(s.alice.token).spaces.getCurrentRevision(s.spaceId);
      assert.equal(after.id, space.id, 'the space did not move');
      assert.equal(await mainMarkdown(s.alice.token, s), mainBefore);
      assert.ok(mainBefore.includes('Alice says the second paragraph is hers.'));

      const { data: stillOpen } = await client(s.bob.token).spaces.getChangeRequestById(s.spaceId, crB.id);
      assert.equal(stillOpen.status, 'open');
      assert.equal(stillOpen.outdated, true);
      const { data: bobsPage } = await client(s.bob.token).spaces.getPageInChangeRequestById(s.spaceId, crB.id, s.pageId, { format: 'markdown' });
      assert.ok((bobsPage as Json).markdown.includes('Bob says the second paragraph is his.'), "Bob's side is kept in his change request");
      const { data: update } = await client(s.bob.token).spaces.updateChangeRequest(s.spaceId, crB.id);
      assert.equal(update.result, 'conflicts');
      assert.equal(update.revision, stillOpen.revision);
    });

    test('updateChangeRequest brings main into an outdated change request, which then merges', async () => {
      const s = await sharedPage();
      const crA = await edit(s.alice.token, s, { 0: 'Alice, first.' });
      const crB = await edit(s.bob.token, s, { 2: 'Bob, third.' });
      const { data: mergedB } = await client(s.bob.token).spaces.mergeChangeRequest(s.spaceId, crB.id);
      assert.equal(mergedB.result, 'merge');

      const { data: outdated } = await client(s.alice.token).spaces.getChangeRequestById(s.spaceId, crA.id);
      assert.equal(outdated.outdated, true);
      assert.equal(outdated.revisionMergedAncestor, undefined);
      const { data: updated } = await client(s.alice.token).spaces.updateChangeRequest(s.spaceId, crA.id);
      assert.equal(updated.result, 'update');
      const { data: fresh } = await client(s.alice.token).spaces.getChangeRequestById(s.spaceId, crA.id);
      assert.equal(fresh.outdated, false);
      assert.equal(fresh.revisionMergedAncestor, mergedB.revision);
      assert.equal(fresh.revision, updated.revision);
      const { data: inCr } = await client(s.alice.token).spaces.getPageInChangeRequestById(s.spaceId, crA.id, s.pageId, { format: 'markdown' });
      assert.equal((inCr as Json).markdown, 'Alice, first.\n\nThe second paragraph.\n\nBob, third.\n');

      // Against its new base, the change request changes only Alice's paragraph of the page.
      const { data: changes } = await client(s.alice.token).spaces.getChangeRequestChanges(s.spaceId, crA.id);
      assert.deepEqual(changes.changes.map((c) => c.type), ['page_edited']);
      assert.equal((changes.changes[0] as Json).page.id, s.pageId);

      const { data: merged } = await client(s.alice.token).spaces.mergeChangeRequest(s.spaceId, crA.id);
      assert.equal(merged.result, 'merge');
      assert.equal(await mainMarkdown(s.alice.token, s), 'Alice, first.\n\nThe second paragraph.\n\nBob, third.\n');
    });

    test('change requests are listed, read by number, renamed and moved between statuses; nothing moves out of merged', async () => {
      const s = await sharedPage();
      const api = client(s.alice.token);
      const { data: a } = await api.spaces.createChangeRequest(s.spaceId, { subject: 'Alpha' });
      const { data: b } = await client(s.bob.token).spaces.createChangeRequest(s.spaceId, { subject: 'Beta' });
      const batch = await write(s.bob.token, s.spaceId, b.id, [
        { operation: 'insert_page', ref: 'faq', title: 'FAQ', document: { markdown: 'Questions.\n' } },
        { operation: 'update_page', page: s.pageId, title: 'House rules' },
      ]);

      const { data: open } = await api.spaces.listChangeRequestsForSpace(s.spaceId);
      assert.deepEqual(open.items.map((cr) => cr.id), [b.id, a.id]);
      const { data: byNumber } = await api.spaces.getChangeRequestById(s.spaceId, String(b.number));
      assert.equal(byNumber.id, b.id);
      assert.equal(byNumber.number, a.number + 1);

      const { data: changes } = await api.spaces.getChangeRequestChanges(s.spaceId, b.id);
      const kinds = changes.changes.map((c) => `${c.type}:${(c as Json).page?.id}`);
      assert.deepEqual(kinds.sort(), [`page_created:${created(batch, 'faq')}`, `page_edited:${s.pageId}`].sort());
      const edited = changes.changes.find((c) => c.type === 'page_edited') as Json;
      assert.deepEqual(edited.attributes.title, { before: 'Policies', after: 'House rules' });
      const { data: limited } = await api.spaces.getChangeRequestChanges(s.spaceId, b.id, { limit: 1 });
      assert.equal(limited.changes.length, 1);
      assert.equal(limited.more, 1);

      const { data: renamed } = await api.spaces.updateChangeRequestById(s.spaceId, a.id, { subject: 'Alpha, renamed' });
      assert.equal(renamed.subject, 'Alpha, renamed');
      const { data: draft } = await api.spaces.updateChangeRequestById(s.spaceId, a.id, { status: 'draft' });
      assert.equal(draft.status, 'draft');
      const { data: drafts } = await api.spaces.listChangeRequestsForSpace(s.spaceId, { status: ChangeRequestStatus.Draft });
      assert.deepEqual(drafts.items.map((cr) => cr.id), [a.id]);
      const { data: reopened } = await api.spaces.updateChangeRequestById(s.spaceId, a.id, { status: 'open' });
      assert.equal(reopened.status, 'open');
      const { data: archived } = await api.spaces.updateChangeRequestById(s.spaceId, a.id, { status: 'archived' });
      assert.equal(archived.status, 'archived');
      await rejectsWith(api.spaces.updateChangeRequestById(s.spaceId, a.id, { status: 'draft' }), 409);
      const { data: back } = await api.spaces.updateChangeRequestById(s.spaceId, a.id, { status: 'open' });
      assert.equal(back.status, 'open');

      const { data: merged } = await api.spaces.mergeChangeRequest(s.spaceId, b.id);
      assert.equal(merged.result, 'merge');
      for (const status of ['open', 'draft', 'archived'] as const) await rejectsWith(api.spaces.updateChangeRequestById(s.spaceId, b.id, { status }), 409);
      await rejectsWith(api.spaces.mergeChangeRequest(s.spaceId, b.id), 409);
      const { data: stillMerged } = await api.spaces.getChangeRequestById(s.spaceId, b.id);
      assert.equal(stillMerged.status, 'merged');
      const { data: afterMerge } = await api.spaces.listChangeRequestsForSpace(s.spaceId);
      assert.deepEqual(afterMerge.items.map((cr) => cr.id), [a.id]);
      await rejectsWith(api.spaces.getChangeRequestById(s.spaceId, '999'), 404);
      const stranger = await t.outsider();
      await rejectsWith(client(stranger.token).spaces.getChangeRequestById(s.spaceId, a.id), 404);
    });
  });

  test('every response conformed to the official spec', () => {
    const violations = log.filter((entry) => entry.problems.length > 0);
    assert.deepEqual(violations.map((v) => new SpecViolation(v).message), []);
    const succeeded = new Set(log.filter((entry) => entry.status < 300).map((entry) => entry.operationId));
    const exercised = [
      'createChangeRequest', 'updateChangeRequestContent', 'listPagesInChangeRequest', 'getRevisionOfChangeRequestById',
      'getPageInChangeRequestById', 'getPageInChangeRequestByPath', 'listFilesInChangeRequestById', 'getFileInChangeRequestById',
      'mergeChangeRequest', 'getCurrentRevision', 'listPages', 'getPageById', 'getPageByPath', 'listFiles', 'getFileById',
      'getRevisionById', 'applyTemplateToSpace', 'updateChangeRequest', 'getChangeRequestChanges', 'listChangeRequestsForSpace',
      'getChangeRequestById', 'updateChangeRequestById',
    ];
    assert.deepEqual(exercised.filter((op) => !succeeded.has(op)), [], 'operations never answered with a success');
  });
});
