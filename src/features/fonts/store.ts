import type { CustomFontFacesTable, CustomFontsTable, Executor } from '../../db/types.ts';

export type FontRow = CustomFontsTable;
export type FontFaceRow = CustomFontFacesTable;
export interface FontWithFaces extends FontRow {
  faces: FontFaceRow[];
}

async function withFaces(db: Executor, fonts: FontRow[]): Promise<FontWithFaces[]> {
  if (fonts.length === 0) return [];
  const faces = await db
    .selectFrom('custom_font_faces')
    .selectAll()
    .where(
      'font_id',
      'in',
      fonts.map((f) => f.id),
    )
    .orderBy('weight')
    .execute();
  return fonts.map((font) => ({ ...font, faces: faces.filter((face) => face.font_id === font.id) }));
}

export async function listFonts(db: Executor, organizationId: string): Promise<FontWithFaces[]> {
  const fonts = await db.selectFrom('custom_fonts').selectAll().where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id').execute();
  return withFaces(db, fonts);
}

export async function findFont(db: Executor, organizationId: string, id: string): Promise<FontWithFaces | undefined> {
  const font = await db.selectFrom('custom_fonts').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return font ? (await withFaces(db, [font]))[0] : undefined;
}

export async function insertFont(db: Executor, font: FontRow, faces: FontFaceRow[]): Promise<void> {
  await db.insertInto('custom_fonts').values(font).execute();
  await db.insertInto('custom_font_faces').values(faces).execute();
}

/** Replaces the font's family and faces with these. */
export async function replaceFont(db: Executor, id: string, changes: Pick<FontRow, 'font_family' | 'updated_at'>, faces: FontFaceRow[]): Promise<void> {
  await db.updateTable('custom_fonts').set(changes).where('id', '=', id).execute();
  await db.deleteFrom('custom_font_faces').where('font_id', '=', id).execute();
  await db.insertInto('custom_font_faces').values(faces).execute();
}

export async function deleteFont(db: Executor, organizationId: string, id: string): Promise<boolean> {
  await db.deleteFrom('custom_font_faces').where('font_id', 'in', db.selectFrom('custom_fonts').select('id').where('organization_id', '=', organizationId).where('id', '=', id)).execute();
  const result = await db.deleteFrom('custom_fonts').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
