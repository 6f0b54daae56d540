import type { Kysely } from 'kysely';

/**
 * A site-space's customization override (overrideSiteSpaceCustomizationById): JSON of the customization fields
 * that variant shows differently from its site; null when it shows the site's as it is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_spaces').addColumn('customization', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_spaces').dropColumn('customization').execute();
}
