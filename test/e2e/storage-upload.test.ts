import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * generateStorageUploadURL (0.202.0) through the official client: a signed URL takes a file's bytes once, and
 * its key names the file, a custom font's face above all.
 */

const OPERATIONS = ['generateStorageUploadURL', 'createCustomFont'];

/** Bytes with WOFF2's signature: what the server sniffs a font from. */
const woff2 = (salt: string) => Buffer.concat([Buffer.from('wOF2', 'latin1'), Buffer.from([0, 1, 0, 0]), Buffer.from(`font ${salt}`.padEnd(64, '.'))]);

describe('uploads to the storage through the official client', { timeout: 120_000 }, () => {
  const session = e2eSession();

  const put = (url: string, bytes: Buffer, type = 'font/woff2') => fetch(url, { method: 'PUT', headers: { 'content-type': type }, body: new Uint8Array(bytes) });

  test('a font uploaded to its signed URL is a face of a custom font by its key, served by this server', async () => {
    const { t, endpoint } = session;
    const org = t.org.id;
    const bytes = woff2('regular');
    const api = session.latest().orgs;
    const { data: signed, status } = (await api.generateStorageUploadUrl(org, { file: { name: 'brand.woff2', type: 'font/woff2', size: bytes.length }, kind: 'customization_font' as never })) as unknown as {
      data: { object: string; url: string; key: string };
      status: number;
    };
    assert.equal(status, 201);
    assert.equal(signed.object, 'storage-signed-url');
    assert.ok(signed.url.startsWith(`${endpoint}/storage/uploads/`), signed.url);

    // The key names nothing until the bytes came.
    await rejectsWith(api.createCustomFont(org, { fontFamily: 'Too soon', fontFaces: [{ weight: 400, storageKey: signed.key }] }), 400, 'body/fontFaces/0/storageKey');
    const uploaded = await put(signed.url, bytes);
    assert.equal(uploaded.status, 200, await uploaded.clone().text());
    assert.deepEqual(await uploaded.json(), { key: signed.key, size: bytes.length, contentType: 'font/woff2' });
    // Once only.
    assert.equal((await put(signed.url, bytes)).status, 409);

    const { data: font } = await api.createCustomFont(org, { fontFamily: 'Brand', fontFaces: [{ weight: 400, storageKey: signed.key }] });
    const download = await fetch(font.fontFaces[0]!.sources[0]!.url);
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), bytes);

    // The key is this organization's: another's admin cannot use it.
    const outsider = await t.outsider();
    await rejectsWith(
      session.latest(outsider.token).orgs.createCustomFont(outsider.organizationId, { fontFamily: 'Borrowed', fontFaces: [{ weight: 400, storageKey: signed.key }] }),
      400, 'storageKey',
    );
  });

  test('an upload URL takes only the declared size, a font only a font, and a wrong or expired signature nothing', async () => {
    const { t } = session;
    const org = t.org.id;
    const api = session.latest().orgs;
    const sign = async (size: number, kind: 'customization_font' | 'organization_file' = 'customization_font', type = 'font/woff2') =>
      (await api.generateStorageUploadUrl(org, { file: { name: 'file.woff2', type, size }, kind: kind as never })).data as unknown as { url: string; key: string };

    const bytes = woff2('sizes');
    assert.equal((await put((await sign(bytes.length + 10)).url, bytes)).status, 400, 'shorter than declared');
    assert.equal((await put((await sign(bytes.length - 10)).url, bytes)).status, 400, 'longer than declared');
    const text = Buffer.from('plain words, not a font');
    assert.equal((await put((await sign(text.length)).url, text, 'font/woff2')).status, 400, 'not a font');
    const signed = await sign(bytes.length);
    assert.equal((await put(signed.url.replace(/signature=[^&]+/, 'signature=wrong'), bytes)).status, 404);
    assert.equal((await put(signed.url.replace(/signature=[^&]+/, ''), bytes)).status, 404);
    t.clock.advance(60 * 60 * 1000 + 1000);
    assert.equal((await put(signed.url, bytes)).status, 404, 'expired');

    // Any file of the organization.
    const other = await sign(text.length, 'organization_file', 'text/plain');
    assert.equal((await put(other.url, text, 'text/plain')).status, 200);

    // Bad input names the field; only admins upload fonts; members who create content upload files; outsiders see nothing.
    await rejectsWith(api.generateStorageUploadUrl(org, { file: { name: 'a.ttf', type: 'font/ttf', size: 10 }, kind: 'customization_font' as never }), 400, 'body/file/type');
    await rejectsWith(api.generateStorageUploadUrl(org, { file: { name: 'a.woff2', type: 'font/woff2', size: 0 }, kind: 'customization_font' as never }), 400, 'body/file/size');
    await rejectsWith(api.generateStorageUploadUrl(org, { file: { name: 'a.woff2', type: 'font/woff2', size: 1e12 }, kind: 'customization_font' as never }), 413);
    const reader = await t.member('read');
    await rejectsWith(session.latest(reader.token).orgs.generateStorageUploadUrl(org, { file: { name: 'a.woff2', type: 'font/woff2', size: 10 }, kind: 'customization_font' as never }), 403);
    await rejectsWith(session.latest(reader.token).orgs.generateStorageUploadUrl(org, { file: { name: 'a.txt', type: 'text/plain', size: 10 }, kind: 'organization_file' as never }), 403);
    const outsider = await t.outsider();
    await rejectsWith(session.latest(outsider.token).orgs.generateStorageUploadUrl(org, { file: { name: 'a.txt', type: 'text/plain', size: 10 }, kind: 'organization_file' as never }), 404);
    await rejectsWith(session.latest(null).orgs.generateStorageUploadUrl(org, { file: { name: 'a.txt', type: 'text/plain', size: 10 }, kind: 'organization_file' as never }), 401);
  });

  test('every exchange conformed to the official spec', () => session.assertConformed(OPERATIONS));
});
