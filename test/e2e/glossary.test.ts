import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * The translation glossary through the newest official client (its `orderBy` is newer than the pinned client):
 * a batch of inserts, updates and deletes is applied whole or not at all; entries are listed a page at a time,
 * in creation order or by one language's term; members with a role read it, admins change it, and another
 * organization learns nothing. That a translation run keeps the glossary's terms is tested with the runs
 * (src/features/translations/translations.test.ts).
 */

const OPERATIONS = ['listGlossaryEntries', 'updateGlossaryEntries', 'getGlossaryEntry'];

describe('the translation glossary through the official client', { timeout: 300_000 }, () => {
  const session = e2eSession();

  test('a batch inserts, updates and deletes entries; they are read, listed in pages and sorted by a language', async () => {
    const { t } = session;
    const api = session.latest().orgs;
    const org = t.org.id;
    await api.updateGlossaryEntries(org, {
      operations: [
        { type: 'insert', translations: { en: 'space', fr: 'espace', de: 'Bereich' } },
        { type: 'insert', translations: { en: 'change request', fr: 'demande de modification' } },
        { type: 'insert', translations: { en: 'Ask', fr: 'Demander' } },
      ],
    });
    const { data: all } = await api.listGlossaryEntries(org);
    assert.deepEqual(all.items.map((e) => e.translations.en), ['space', 'change request', 'Ask'], 'creation order');
    const [space, changeRequest, ask] = all.items;
    assert.equal(space!.object, 'glossary-entry');
    assert.equal(space!.urls.location, `${session.endpoint}/v1/orgs/${org}/translations-glossary/${space!.id}`);
    assert.deepEqual((await api.getGlossaryEntry(org, changeRequest!.id)).data, changeRequest);

    // By the French term, any case; then a page at a time.
    const { data: byFrench } = await api.listGlossaryEntries(org, { orderBy: 'fr' as never });
    assert.deepEqual(byFrench.items.map((e) => e.translations.fr), ['demande de modification', 'Demander', 'espace']);
    const { data: byGerman } = await api.listGlossaryEntries(org, { orderBy: 'de' as never });
    assert.equal(byGerman.items[0]!.id, space!.id, 'entries without a German term come last');
    const { data: first } = await api.listGlossaryEntries(org, { orderBy: 'fr' as never, limit: 2 });
    assert.equal(first.items.length, 2);
    assert.ok(first.next?.page);
    const { data: second } = await api.listGlossaryEntries(org, { orderBy: 'fr' as never, limit: 2, page: first.next!.page });
    assert.deepEqual(second.items.map((e) => e.translations.fr), ['espace']);
    assert.equal(second.next, undefined);

    // One batch updates an entry and deletes another; deleting what is gone already is done.
    t.clock.advance(1_000);
    await api.updateGlossaryEntries(org, {
      operations: [
        { type: 'update', id: space!.id, translations: { en: 'space', fr: 'espace de travail' } },
        { type: 'delete', id: ask!.id },
        { type: 'delete', id: 'no-such-entry' },
      ],
    });
    const { data: updated } = await api.getGlossaryEntry(org, space!.id);
    assert.deepEqual(updated.translations, { en: 'space', fr: 'espace de travail' }, 'an update replaces the translations');
    assert.equal(updated.createdAt, space!.createdAt);
    assert.ok(updated.updatedAt > space!.updatedAt);
    await rejectsWith(api.getGlossaryEntry(org, ask!.id), 404, new RegExp(ask!.id));
    assert.equal((await api.listGlossaryEntries(org)).data.items.length, 2);
  });

  test('a batch with a bad operation is refused naming it, and nothing of it is written', async () => {
    const { t } = session;
    const api = session.latest().orgs;
    const org = t.org.id;
    const before = (await api.listGlossaryEntries(org)).data.items;
    const existing = before[0]!;
    const refused = async (operations: unknown[], message: RegExp) => {
      await rejectsWith(api.updateGlossaryEntries(org, { operations: operations as never }), 400, message);
      assert.deepEqual((await api.listGlossaryEntries(org)).data.items, before, 'nothing written');
    };
    const insert = { type: 'insert', translations: { en: 'reader', fr: 'lecteur' } };
    await refused([insert, { type: 'insert', translations: { en: 'site', xx: 'site' } }], /operations\/1\/translations\/xx/);
    await refused([insert, { type: 'insert', translations: { en: 'two\nlines' } }], /translations/);
    await refused([insert, { type: 'insert', translations: { fr: '   ' } }], /operations\/1\/translations\/fr must not be blank/);
    await refused([insert, { type: 'insert', translations: {} }], /operations\/1\/translations must name/);
    await refused([insert, { type: 'update', id: 'no-such-entry', translations: { en: 'x' } }], /operations\/1\/id: no glossary entry no-such-entry/);
    await refused(
      [
        { type: 'update', id: existing.id, translations: { en: 'a' } },
        { type: 'delete', id: existing.id },
      ],
      /operations\/1\/id: entry .* is named by another operation/,
    );
    await refused([{ type: 'rename', id: existing.id }], /operations/);
  });

  test('members with a role read the glossary, only admins change it, another organization learns nothing', async () => {
    const { t } = session;
    const org = t.org.id;
    const [entry] = (await session.latest().orgs.listGlossaryEntries(org)).data.items;
    const reader = session.latest((await t.member('read')).token).orgs;
    assert.ok((await reader.listGlossaryEntries(org)).data.items.length > 0);
    assert.equal((await reader.getGlossaryEntry(org, entry!.id)).data.id, entry!.id);
    await rejectsWith(reader.updateGlossaryEntries(org, { operations: [{ type: 'delete', id: entry!.id }] }), 403);
    const guest = session.latest((await t.member(null)).token).orgs;
    await rejectsWith(guest.listGlossaryEntries(org), 403);

    const outsider = session.latest((await t.outsider()).token).orgs;
    await rejectsWith(outsider.listGlossaryEntries(org), 404);
    await rejectsWith(outsider.getGlossaryEntry(org, entry!.id), 404);
    await rejectsWith(outsider.updateGlossaryEntries(org, { operations: [{ type: 'delete', id: entry!.id }] }), 404);
    await rejectsWith(session.latest(null).orgs.listGlossaryEntries(org), 401);
    assert.equal((await session.latest().orgs.getGlossaryEntry(org, entry!.id)).data.id, entry!.id, 'still there');
  });

  test('every operation was exercised and conformed to the official spec', () => session.assertConformed(OPERATIONS));
});
