import type { Static } from 'typebox';
import type { Executor } from '../../db/types.ts';
import { isoNow } from '../../platform/clock.ts';
import type { AppContext, Caller } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { OrgAccess } from '../access/service.ts';
import { findUploadedFile } from '../files/service.ts';
import { storedHashOfUploadKey } from '../files/storage-uploads.ts';
import { assertOrganizationVisible } from '../organizations/policy.ts';
import { FONT_FORMATS, storedHashOf } from './font-files.ts';
import { fontPolicy } from './policy.ts';
import { fontDefinition, presentFont } from './present.ts';
import type { CreateFontBody, UpdateFontBody } from './schemas.ts';
import { deleteFont, findFont, insertFont, listFonts, replaceFont, type FontFaceRow, type FontWithFaces } from './store.ts';

/** The regular weight: every font has a face of it (the official rule), the one text falls back to. */
const REGULAR = 400;

async function fontAccess(ctx: AppContext, caller: Caller, organizationId: string, action: 'view' | 'edit', doing: string): Promise<OrgAccess> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertOrganizationVisible(access);
  fontPolicy.assert(access, action, doing);
  return access;
}

function present(ctx: AppContext, access: OrgAccess, font: FontWithFaces) {
  return presentFont(ctx.config, font, { edit: fontPolicy.can(access, 'edit') });
}

async function loadFont(ctx: AppContext, organizationId: string, fontId: string): Promise<FontWithFaces> {
  const font = await findFont(ctx.db, organizationId, fontId);
  if (!font) throw notFound(`No custom font ${fontId} in this organization`);
  return font;
}

export async function listCustomFonts(ctx: AppContext, caller: Caller, organizationId: string) {
  const access = await fontAccess(ctx, caller, organizationId, 'view', 'Listing the custom fonts');
  const fonts = await listFonts(ctx.db, organizationId);
  return { count: fonts.length, items: fonts.map((font) => present(ctx, access, font)) };
}

export async function getCustomFont(ctx: AppContext, caller: Caller, organizationId: string, fontId: string) {
  const access = await fontAccess(ctx, caller, organizationId, 'view', 'Reading a custom font');
  return present(ctx, access, await loadFont(ctx, organizationId, fontId));
}

/**
 * The face a `storageKey` gives a weight: the bytes must be stored on this server (the key of an upload of this
 * organization (generateStorageUploadURL), an upload's id, or a download URL of it) and be a WOFF or WOFF2 font, as
 * their bytes say; 400 naming the field otherwise.
 */
async function faceOf(ctx: AppContext, organizationId: string, fontId: string, weight: number, storageKey: string, field: string): Promise<FontFaceRow> {
  const hash = storedHashOf(storageKey, ctx.config.publicUrl) ?? (await storedHashOfUploadKey(ctx, organizationId, storageKey.trim()));
  if (!hash) {
    throw badRequest(
      `${field}: "${storageKey}" is not a file stored on this server (the key of a finished upload, the id of an upload, or its download URL under ${ctx.config.publicUrl}/files/)`,
    );
  }
  const file = await findUploadedFile(ctx, hash);
  if (!file) throw badRequest(`${field}: no file ${hash} is stored on this server`);
  const format = FONT_FORMATS[file.contentType];
  if (!format) throw badRequest(`${field}: the file is ${file.contentType}, not a font (a WOFF2 or WOFF file)`);
  return { font_id: fontId, weight, blob_hash: hash, format };
}

function checkRegular(faces: readonly { weight: number }[]): void {
  if (!faces.some((face) => face.weight === REGULAR)) throw badRequest(`body/fontFaces must give weight ${REGULAR} (regular): every font has one`);
}

function checkDistinctWeights(faces: readonly { weight: number }[]): void {
  const seen = new Set<number>();
  faces.forEach((face, i) => {
    if (seen.has(face.weight)) throw badRequest(`body/fontFaces/${i}/weight: weight ${face.weight} is given twice`);
    seen.add(face.weight);
  });
}

export async function createCustomFont(ctx: AppContext, caller: Caller, organizationId: string, body: Static<typeof CreateFontBody>) {
  const access = await fontAccess(ctx, caller, organizationId, 'edit', 'Adding a custom font');
  checkDistinctWeights(body.fontFaces);
  checkRegular(body.fontFaces);
  const id = newId();
  const faces = await Promise.all(body.fontFaces.map((face, i) => faceOf(ctx, organizationId, id, face.weight, face.storageKey, `body/fontFaces/${i}/storageKey`)));
  const now = isoNow(ctx.clock);
  const font = { id, organization_id: organizationId, font_family: body.fontFamily, created_at: now, updated_at: now };
  await ctx.db.transaction().execute((trx) => insertFont(trx, font, faces));
  return present(ctx, access, { ...font, faces: [...faces].sort((a, b) => a.weight - b.weight) });
}

/** Renames a font, and sets or (with a null storageKey) removes faces by weight; weight 400 must remain. */
export async function updateCustomFont(ctx: AppContext, caller: Caller, organizationId: string, fontId: string, body: Static<typeof UpdateFontBody>) {
  const access = await fontAccess(ctx, caller, organizationId, 'edit', 'Changing a custom font');
  const font = await loadFont(ctx, organizationId, fontId);
  const changes = body.fontFaces ?? [];
  checkDistinctWeights(changes);
  const byWeight = new Map(font.faces.map((face) => [face.weight, face]));
  for (const [i, change] of changes.entries()) {
    if (change.storageKey === null) byWeight.delete(change.weight);
    else byWeight.set(change.weight, await faceOf(ctx, organizationId, font.id, change.weight, change.storageKey, `body/fontFaces/${i}/storageKey`));
  }
  const faces = [...byWeight.values()].sort((a, b) => a.weight - b.weight);
  checkRegular(faces);
  const updated = { font_family: body.fontFamily ?? font.font_family, updated_at: isoNow(ctx.clock) };
  await ctx.db.transaction().execute((trx) => replaceFont(trx, font.id, updated, faces));
  return present(ctx, access, { ...font, ...updated, faces });
}

/** Deletes a font; answers whether there was one to delete (205, else 204). What the caller cannot see is, for them, already gone. */
export async function deleteCustomFont(ctx: AppContext, caller: Caller, organizationId: string, fontId: string): Promise<boolean> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  if (!fontPolicy.can(access, 'view')) return false;
  fontPolicy.assert(access, 'edit', 'Removing a custom font');
  return deleteFont(ctx.db, organizationId, fontId);
}

/**
 * A font a site's customization names (`styling.font` as a definition with `custom: true`), as it stands now:
 * its faces at this server's URLs, whatever sources the body gave. Undefined when the organization has no such font.
 */
export async function customFontDefinition(ctx: AppContext, db: Executor, organizationId: string, fontId: string) {
  const font = await findFont(db, organizationId, fontId);
  return font ? fontDefinition(ctx.config, font) : undefined;
}

/** What a customization's `styling.font` or `styling.monospaceFont` may hold: a built-in font's name, or a definition. */
type FontChoice = string | { id: string; custom: boolean; fontFamily: string; fontFaces: unknown[] };

/**
 * A customization's font choices as they are stored: a built-in name stays; a definition must name a custom font
 * of the organization (`custom: true` and its `id`), and is replaced by that font as it stands, so that the sites
 * load its files from this server, never from sources a body names. 400 naming the field otherwise.
 */
export async function resolveCustomizationFonts<S extends { font?: FontChoice; monospaceFont?: FontChoice }>(
  ctx: AppContext,
  organizationId: string,
  styling: S,
  field: string,
): Promise<S> {
  const resolved = { ...styling };
  for (const key of ['font', 'monospaceFont'] as const) {
    const choice = styling[key];
    if (choice === undefined || typeof choice === 'string') continue;
    if (!choice.custom) throw badRequest(`${field}/${key}: a font definition must be a custom font of this organization (custom: true, with its id); built-in fonts are named`);
    const definition = await customFontDefinition(ctx, ctx.db, organizationId, choice.id);
    if (!definition) throw badRequest(`${field}/${key}/id: no custom font ${choice.id} in this organization`);
    (resolved as Record<string, unknown>)[key] = definition;
  }
  return resolved;
}
