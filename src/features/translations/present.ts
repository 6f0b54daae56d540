import type { Config } from '../../config.ts';
import { apiUrl } from '../../platform/urls.ts';
import type { PresentedTranslation } from './schemas.ts';
import type { TranslationRow, TranslationTargetRow } from './store.ts';

const EMPTY_DOCUMENT = { object: 'document', data: {}, nodes: [] };

export function languagesOf(row: Pick<TranslationRow, 'languages'>): string[] {
  return JSON.parse(row.languages) as string[];
}

export function presentTranslation(config: Config, row: TranslationRow, targets: readonly TranslationTargetRow[], permissions: { view: boolean; edit: boolean }): PresentedTranslation {
  const languages = languagesOf(row);
  // The official object has one target language and one result: the first language's.
  const first = languages[0];
  const firstTarget = targets.find((t) => t.language === first);
  return {
    object: 'translation-settings',
    id: row.id,
    title: row.title,
    languages,
    status: row.status as PresentedTranslation['status'],
    ...(row.source_space_id && row.source_language ? { source: { space: row.source_space_id, language: row.source_language as never } } : {}),
    ...(first ? { language: first as never } : {}),
    instructions: row.instructions ? (JSON.parse(row.instructions) as Record<string, unknown>) : EMPTY_DOCUMENT,
    ...(firstTarget?.revision_id ? { result: { space: firstTarget.space_id, revision: firstTarget.revision_id } } : {}),
    targets: targets
      .filter((t) => languages.includes(t.language))
      .map((t) => ({
        language: t.language as never,
        space: t.space_id,
        ...(t.revision_id ? { revision: t.revision_id } : {}),
        pagesToTranslate: t.pages_to_translate,
      })),
    ...(row.last_error ? { lastError: row.last_error } : {}),
    ...(row.last_run_at ? { lastRunAt: row.last_run_at } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    stats: {
      runs: row.runs,
      totalWords: row.total_words,
      totalPages: row.total_pages,
      totalDuration: row.total_duration,
      latestRunDuration: row.latest_run_duration,
      latestPages: row.latest_pages,
      latestWords: row.latest_words,
    },
    permissions,
    urls: { location: apiUrl(config, `/orgs/${row.organization_id}/translations/${row.id}`) },
  };
}
