import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok, siteBuilders } from './sites.test-support.ts';

describe('site structure: site-spaces, sections, section groups', () => {
  let t: TestServer;
  let b: ReturnType<typeof siteBuilders>;
  before(async () => {
    t = await startServer();
    b = siteBuilders(t);
  });
  after(() => t.close());

  const structureOf = async (siteId: string) => (await b.published(siteId)).structure;
  const titles = (items: { title: string }[]) => items.map((i) => i.title);

  describe('site-spaces', () => {
    test('the first site-space is the default; deleting the default promotes the next', async () => {
      const site = await b.site();
      const first = await b.addSpace(site.id, (await b.space('First')).id);
      const second = await b.addSpace(site.id, (await b.space('Second')).id);
      assert.equal(first.default, true);
      assert.equal(second.default, false);
      assert.equal(first.path, 'first');
      assert.equal(first.title, 'First');
      assert.equal((await t.api('DELETE', `${b.sites}/${site.id}/site-spaces/${first.id}`)).status, 204);
      const left = ok(await t.api('GET', `${b.sites}/${site.id}/site-spaces`)).items;
      assert.deepEqual(left.map((ss: { id: string; default: boolean }) => [ss.id, ss.default]), [[second.id, true]]);
      assert.equal((await t.api('DELETE', `${b.sites}/${site.id}/site-spaces/${first.id}`)).status, 204, 'deleting again is 204');
      assert.ok((await b.eventsOfType('site_structure_updated')).some((e) => e.siteId === site.id && e.change === 'site_space_removed'));
    });

    test('paths are unique among siblings and URL-safe; the same space twice gets a second path', async () => {
      const site = await b.site();
      const space = await b.space('Guide');
      const one = await b.addSpace(site.id, space.id);
      const two = await b.addSpace(site.id, space.id);
      assert.deepEqual([one.path, two.path], ['guide', 'guide-2']);
      assertError(await t.api('PATCH', `${b.sites}/${site.id}/site-spaces/${two.id}`, { body: { path: 'guide' } }), 409, 'body/path');
      assertError(await t.api('PATCH', `${b.sites}/${site.id}/site-spaces/${two.id}`, { body: { path: 'a/b' } }), 400, 'body/path');
      assertError(await t.api('PATCH', `${b.sites}/${site.id}/site-spaces/${two.id}`, { body: { path: '' } }), 400, 'body/path');
      const renamed = ok(await t.api('PATCH', `${b.sites}/${site.id}/site-spaces/${two.id}`, { body: { path: 'v2' } }));
      assert.equal(renamed.path, 'v2');
    });

    test('a condition is checked when written, kept when omitted and removed by null', async () => {
      const site = await b.site();
      const ss = await b.addSpace(site.id, (await b.space('Beta')).id);
      const url = `${b.sites}/${site.id}/site-spaces/${ss.id}`;
      const withCondition = ok(await t.api('PATCH', url, { body: { condition: 'visitor.claims.unsigned.isBetaUser == true' } }));
      assert.equal(withCondition.condition, 'visitor.claims.unsigned.isBetaUser == true');
      assert.equal(ok(await t.api('PATCH', url, { body: { path: 'beta' } })).condition, 'visitor.claims.unsigned.isBetaUser == true');
      assertError(await t.api('PATCH', url, { body: { condition: 'visitor.claims ==' } }), 400, 'body/condition');
      assertError(await t.api('PATCH', url, { body: { condition: 'globalThis.process.exit()' } }), 400, 'body/condition');
      assert.equal(ok(await t.api('PATCH', url, { body: { condition: null } })).condition, undefined);
    });

    test('spaceId repoints a site-space; a space of another organization is refused', async () => {
      const site = await b.site();
      const ss = await b.addSpace(site.id, (await b.space('Old')).id);
      const replacement = await b.space('New');
      const updated = ok(await t.api('PATCH', `${b.sites}/${site.id}/site-spaces/${ss.id}`, { body: { spaceId: replacement.id } }));
      assert.equal(updated.space.id, replacement.id);
      assert.equal(updated.title, 'New');
      assertError(await t.api('PATCH', `${b.sites}/${site.id}/site-spaces/${ss.id}`, { body: { spaceId: 'nope' } }), 400, 'body/spaceId');
      assertError(await t.api('PATCH', `${b.sites}/${site.id}/site-spaces/nope`, { body: { path: 'x' } }), 404);
      assertError(await t.api('POST', `${b.sites}/${site.id}/site-spaces`, { body: { spaceId: 'nope' } }), 400, 'body/spaceId');
      assertError(await t.api('POST', `${b.sites}/${site.id}/site-spaces`, { body: { spaceId: replacement.id, sectionId: 'nope' } }), 400, 'body/sectionId');
    });

    test('the default filter lists the default of each section, or every other one', async () => {
      const site = await b.site();
      const a = await b.section(site.id, (await b.space('Alpha')).id);
      const bSection = await b.section(site.id, (await b.space('Beta')).id);
      const extra = await b.addSpace(site.id, (await b.space('Alpha v2')).id, a.id);
      const defaults = ok(await t.api('GET', `${b.sites}/${site.id}/site-spaces?default=true`)).items.map((ss: { id: string }) => ss.id);
      assert.deepEqual(defaults, [a.siteSpaces[0].id, bSection.siteSpaces[0].id]);
      const others = ok(await t.api('GET', `${b.sites}/${site.id}/site-spaces?default=false`)).items.map((ss: { id: string }) => ss.id);
      assert.deepEqual(others, [extra.id]);
      assert.equal(ok(await t.api('GET', `${b.sites}/${site.id}/site-spaces`)).count, 3);
      const paged = ok(await t.api('GET', `${b.sites}/${site.id}/site-spaces?limit=2`));
      assert.equal(paged.items.length, 2);
      const rest = ok(await t.api('GET', `${b.sites}/${site.id}/site-spaces?limit=2&page=${paged.next.page}`));
      assert.deepEqual(rest.items.map((ss: { id: string }) => ss.id), [bSection.siteSpaces[0].id]);
    });

    test('moveSiteSpace puts a site-space before another or last', async () => {
      const site = await b.site();
      const [x, y, z] = [await b.addSpace(site.id, (await b.space('X')).id), await b.addSpace(site.id, (await b.space('Y')).id), await b.addSpace(site.id, (await b.space('Z')).id)];
      ok(await t.api('POST', `${b.sites}/${site.id}/site-spaces/${z.id}/move`, { body: { position: { before: { type: 'site-space', siteSpace: x.id } } } }));
      assert.deepEqual(titles((await structureOf(site.id)).structure), ['Z', 'X', 'Y']);
      ok(await t.api('POST', `${b.sites}/${site.id}/site-spaces/${z.id}/move`, { body: {} }));
      assert.deepEqual(titles((await structureOf(site.id)).structure), ['X', 'Y', 'Z']);
      assertError(await t.api('POST', `${b.sites}/${site.id}/site-spaces/${z.id}/move`, { body: { position: { after: { type: 'site-space', siteSpace: 'nope' } } } }), 400, 'body/position');
      assertError(await t.api('POST', `${b.sites}/${site.id}/site-spaces/${y.id}/move`, { body: { position: { after: { type: 'site-space', siteSpace: y.id } } } }), 400);
    });
  });

  describe('sections', () => {
    test('adding a section with its first variant; the first section is the default', async () => {
      const site = await b.site();
      const section = await b.section(site.id, (await b.space('Getting started')).id);
      assert.equal(section.object, 'site-section');
      assert.equal(section.title, 'Getting started');
      assert.equal(section.path, 'getting-started');
      assert.equal(section.default, true);
      assert.equal(section.siteSpaces.length, 1);
      assert.equal(section.siteSpaces[0].default, true);
      assert.equal(section.siteSpaces[0].section, section.id);
      const second = await b.section(site.id, (await b.space('API')).id, 'API reference');
      assert.equal(second.default, false);
      assert.equal(second.path, 'api-reference');
      const structure = await structureOf(site.id);
      assert.equal(structure.type, 'sections');
      assert.deepEqual(titles(structure.structure), ['Getting started', 'API reference']);
      assertError(await t.api('POST', `${b.sites}/${site.id}/sections`, { body: { spaceId: 'nope' } }), 400, 'body/spaceId');
      assertError(await t.api('POST', `${b.sites}/${site.id}/sections`, { body: { spaceId: section.siteSpaces[0].space.id, title: 'x' } }), 400, 'body/title');
    });

    test("a site's root site-spaces become its first section when a section is added", async () => {
      const root = await b.space('Root');
      const site = await b.site({ title: 'Wrapped', spaces: [root.id] });
      await b.section(site.id, (await b.space('Added')).id);
      const structure = await structureOf(site.id);
      assert.deepEqual(titles(structure.structure), ['Wrapped', 'Added']);
      assert.equal(structure.structure[0].default, true);
      assert.equal(structure.structure[0].siteSpaces[0].space.id, root.id);
      const added = await b.addSpace(site.id, (await b.space('Goes to default')).id);
      assert.equal(added.section, structure.structure[0].id);
    });

    test('published URLs: the default section and default variant at their parent, the others under their paths', async () => {
      const site = await b.site();
      const main = await b.section(site.id, (await b.space('Main')).id);
      const other = await b.section(site.id, (await b.space('Other')).id);
      const variant = await b.addSpace(site.id, (await b.space('V2')).id, other.id);
      ok(await t.api('POST', `${b.sites}/${site.id}/publish`));
      const structure = await structureOf(site.id);
      const base = `http://quire.test/sites/${site.id}/`;
      assert.equal(structure.structure[0].urls.published, base);
      assert.equal(structure.structure[0].siteSpaces[0].urls.published, base);
      assert.equal(structure.structure[1].urls.published, `${base}other/`);
      assert.equal(structure.structure[1].siteSpaces[1].urls.published, `${base}other/v2/`);
      assert.equal(structure.structure[1].siteSpaces[1].id, variant.id);
      assert.equal(main.id, structure.structure[0].id);
    });

    test('update: title, path (unique, URL-safe), condition, icon, description, default site-space', async () => {
      const site = await b.site();
      const a = await b.section(site.id, (await b.space('Alpha')).id);
      const bb = await b.section(site.id, (await b.space('Beta')).id);
      const variant = await b.addSpace(site.id, (await b.space('Beta 2')).id, bb.id);
      const url = `${b.sites}/${site.id}/sections/${bb.id}`;
      const updated = ok(
        await t.api('PATCH', url, {
          body: { title: 'Beta docs', path: 'beta-docs', condition: 'visitor.claims.unsigned.beta == true', icon: 'flask', description: 'For testers', defaultSiteSpace: variant.id },
        }),
      );
      assert.equal(updated.title, 'Beta docs');
      assert.equal(updated.path, 'beta-docs');
      assert.equal(updated.condition, 'visitor.claims.unsigned.beta == true');
      assert.equal(updated.icon, 'flask');
      assert.equal(updated.description, 'For testers');
      assert.deepEqual(updated.siteSpaces.map((ss: { id: string; default: boolean }) => [ss.id, ss.default]), [[bb.siteSpaces[0].id, false], [variant.id, true]]);
      const cleared = ok(await t.api('PATCH', url, { body: { condition: null, icon: null, description: null } }));
      assert.equal(cleared.condition, undefined);
      assert.equal(cleared.icon, undefined);
      assertError(await t.api('PATCH', url, { body: { path: a.path } }), 409, 'body/path');
      assertError(await t.api('PATCH', url, { body: { path: '../x' } }), 400, 'body/path');
      assertError(await t.api('PATCH', url, { body: { condition: 'visitor..claims' } }), 400, 'body/condition');
      assertError(await t.api('PATCH', url, { body: { defaultSiteSpace: a.siteSpaces[0].id } }), 400, 'body/defaultSiteSpace');
      assertError(await t.api('PATCH', `${b.sites}/${site.id}/sections/nope`, { body: { title: 'Nope' } }), 404);
      // The site's default section can be changed from the site.
      ok(await t.api('PATCH', `${b.sites}/${site.id}`, { body: { defaultSiteSection: bb.id } }));
      assert.deepEqual((await structureOf(site.id)).structure.map((s: { default: boolean }) => s.default), [false, true]);
    });

    test('deleting the default section removes its site-spaces and promotes the next', async () => {
      const site = await b.site();
      const a = await b.section(site.id, (await b.space('AA')).id);
      await b.section(site.id, (await b.space('BB')).id);
      assert.equal((await t.api('DELETE', `${b.sites}/${site.id}/sections/${a.id}`)).status, 204);
      const structure = await structureOf(site.id);
      assert.deepEqual(titles(structure.structure), ['BB']);
      assert.equal(structure.structure[0].default, true);
      assert.equal(ok(await t.api('GET', `${b.sites}/${site.id}`)).siteSpaces, 1);
      assert.equal((await t.api('DELETE', `${b.sites}/${site.id}/sections/${a.id}`)).status, 204);
    });

    test('moveSiteSection and listSiteSections follow the structure', async () => {
      const site = await b.site();
      const a = await b.section(site.id, (await b.space('AA')).id);
      const c = await b.section(site.id, (await b.space('CC')).id);
      ok(await t.api('POST', `${b.sites}/${site.id}/sections/${c.id}/move`, { body: { position: { before: { type: 'site-section', siteSection: a.id } } } }));
      assert.deepEqual(titles(ok(await t.api('GET', `${b.sites}/${site.id}/sections`)).items), ['CC', 'AA']);
      assertError(await t.api('POST', `${b.sites}/${site.id}/sections/${c.id}/move`, { body: { position: { before: { type: 'site-section', siteSection: 'nope' } } } }), 400, 'body/position');
    });
  });

  describe('section groups and sortSiteStructure', () => {
    test('a group holds sections; they can be added, removed, and survive its deletion', async () => {
      const site = await b.site();
      const a = await b.section(site.id, (await b.space('AA')).id);
      const c = await b.section(site.id, (await b.space('CC')).id);
      const d = await b.section(site.id, (await b.space('DD')).id);
      const group = ok(await t.api('POST', `${b.sites}/${site.id}/section-groups`, { body: { title: 'Products', icon: 'box', sections: [c.id] } }), 201);
      assert.equal(group.object, 'site-section-group');
      assert.deepEqual(titles(group.sections), ['CC']);
      assert.deepEqual(titles(group.children), ['CC']);
      assert.equal(group.sections[0].sectionGroup, group.id);
      const grown = ok(await t.api('POST', `${b.sites}/${site.id}/section-groups/${group.id}/sections`, { body: { sectionId: d.id } }), 201);
      assert.deepEqual(titles(grown.sections), ['CC', 'DD']);
      let structure = await structureOf(site.id);
      assert.deepEqual(titles(structure.structure), ['AA', 'Products']);
      assert.equal((await t.api('DELETE', `${b.sites}/${site.id}/section-groups/${group.id}/sections/${c.id}`)).status, 204);
      assert.equal((await t.api('DELETE', `${b.sites}/${site.id}/section-groups/${group.id}/sections/${c.id}`)).status, 204, 'not in the group any more: 204');
      structure = await structureOf(site.id);
      assert.deepEqual(titles(structure.structure), ['AA', 'Products', 'CC']);
      const renamed = ok(await t.api('PATCH', `${b.sites}/${site.id}/section-groups/${group.id}`, { body: { title: 'All products', icon: null } }));
      assert.equal(renamed.title, 'All products');
      assert.equal(renamed.icon, undefined);
      assert.equal(ok(await t.api('GET', `${b.sites}/${site.id}/section-groups`)).count, 1);
      assert.equal((await t.api('DELETE', `${b.sites}/${site.id}/section-groups/${group.id}`)).status, 204);
      structure = await structureOf(site.id);
      assert.deepEqual(titles(structure.structure), ['AA', 'DD', 'CC']);
      assert.equal(a.default, true);
      assertError(await t.api('POST', `${b.sites}/${site.id}/section-groups`, { body: { title: 'Bad', sections: ['nope'] } }), 400, 'body/sections/0');
      assertError(await t.api('POST', `${b.sites}/${site.id}/section-groups`, { body: { title: '' } }), 400, 'body/title');
      assertError(await t.api('POST', `${b.sites}/${site.id}/section-groups/nope/sections`, { body: { sectionId: a.id } }), 404);
    });

    test('moveSiteSectionGroup and sortSiteStructure reorder the top level, sections and site-spaces', async () => {
      const site = await b.site();
      const a = await b.section(site.id, (await b.space('AA')).id);
      const c = await b.section(site.id, (await b.space('CC')).id);
      const group = ok(await t.api('POST', `${b.sites}/${site.id}/section-groups`, { body: { title: 'G', sections: [c.id] } }), 201);
      ok(await t.api('POST', `${b.sites}/${site.id}/section-groups/${group.id}/move`, { body: { position: { before: { type: 'site-section', id: a.id } } } }));
      assert.deepEqual(titles((await structureOf(site.id)).structure), ['G', 'AA']);
      const sort = (body: unknown) => t.api('PATCH', `${b.sites}/${site.id}/structure/sort`, { body });
      const moved = ok(await sort({ item: { type: 'site-section-group', id: group.id }, position: { after: { type: 'site-section', id: a.id } } }));
      assert.equal(moved.object, 'site-section-group');
      assert.deepEqual(titles((await structureOf(site.id)).structure), ['AA', 'G']);
      // A section moves next to a section inside a group: into the group.
      const section = ok(await sort({ item: { type: 'site-section', id: a.id }, position: { before: { type: 'site-section', id: c.id } } }));
      assert.equal(section.sectionGroup, group.id);
      assert.deepEqual(titles((await structureOf(site.id)).structure[0].sections), ['AA', 'CC']);
      const v2 = await b.addSpace(site.id, (await b.space('C v2')).id, c.id);
      const ss = ok(await sort({ item: { type: 'site-space', id: v2.id }, position: { before: { type: 'site-space', id: c.siteSpaces[0].id } } }));
      assert.equal(ss.object, 'site-space');
      assert.deepEqual(titles((await structureOf(site.id)).structure[0].sections[1].siteSpaces), ['C v2', 'CC']);
      assertError(await sort({ item: { type: 'site-space', id: v2.id }, position: { before: { type: 'site-section', id: a.id } } }), 400, 'body/position');
      assertError(await sort({ item: { type: 'site-section', id: 'nope' }, position: {} }), 400, 'body/item');
      assertError(await sort({ item: { type: 'site-section-group', id: group.id }, position: { before: { type: 'site-section', id: c.id } } }), 400, 'body/position');
      assertError(await sort({ item: { type: 'site-section', id: a.id }, position: { before: { type: 'site-section', id: c.id }, after: { type: 'site-section', id: c.id } } }), 400, 'body/position');
    });

    test('only admins change the structure; readers see it', async () => {
      const space = await b.space('Readable');
      const site = await b.site();
      const section = await b.section(site.id, space.id);
      const reader = await t.member('read');
      ok(await t.api('GET', `${b.sites}/${site.id}/sections`, { token: reader.token }));
      assertError(await t.api('PATCH', `${b.sites}/${site.id}/sections/${section.id}`, { token: reader.token, body: { title: 'Mine' } }), 403);
      assertError(await t.api('POST', `${b.sites}/${site.id}/section-groups`, { token: reader.token, body: { title: 'Mine' } }), 403);
      assertError(await t.api('DELETE', `${b.sites}/${site.id}/sections/${section.id}`, { token: reader.token }), 403);
    });
  });
});
