import { Type, type Static } from 'typebox';
import { ListQuery, Timestamp } from '../../platform/schemas.ts';
import { TranslationLanguage } from '../spaces/schemas.ts';

/**
 * Translation settings. The seed's contract (`translation-settings` with `title` and `languages`) comes first;
 * the official spec's Translation fields (source space and language, target language, instructions, status,
 * result, stats) are added alongside, so the official client reads every field it knows.
 */
export const TranslationTitle = Type.String({ minLength: 1, maxLength: 100, description: 'Name of the translation settings' });

export const TranslationLanguages = Type.Array(TranslationLanguage, { maxItems: 38, uniqueItems: true, description: 'Target languages: one space is kept per language' });

export const TranslationSource = Type.Object({
  space: Type.String({ minLength: 1, description: 'ID of the source space' }),
  language: TranslationLanguage,
});

/** A JSON document (instructions for translators); its blocks are kept as given. */
export const InstructionsDocument = Type.Object(
  {
    object: Type.Literal('document'),
    data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    nodes: Type.Array(Type.Unknown(), { maxItems: 1000 }),
  },
  { additionalProperties: true },
);

export const TranslationStatus = Type.Union([Type.Literal('pending'), Type.Literal('running'), Type.Literal('completed')], {
  description: '`pending`: a run waits (or the settings lack a source space or languages); `running`; `completed`: the last run ended',
});

const Count = Type.Integer({ minimum: 0 });

export const TranslationTarget = Type.Object({
  language: TranslationLanguage,
  space: Type.String({ description: 'ID of the space holding this language' }),
  revision: Type.Optional(Type.String({ description: 'Revision the last run wrote' })),
  pagesToTranslate: Type.Integer({ minimum: 0, description: 'Pages copied untranslated (no provider) or whose source changed after a person translated them' }),
});

export const Translation = Type.Object(
  {
    object: Type.Literal('translation-settings'),
    id: Type.String(),
    title: Type.String(),
    languages: Type.Array(Type.String()),
    status: TranslationStatus,
    source: Type.Optional(TranslationSource),
    language: Type.Optional(TranslationLanguage),
    instructions: Type.Object({}, { additionalProperties: true }),
    result: Type.Optional(Type.Object({ space: Type.String(), revision: Type.String() })),
    targets: Type.Array(TranslationTarget),
    lastError: Type.Optional(Type.String({ description: 'Why the last attempt of a run failed; it is retried' })),
    lastRunAt: Type.Optional(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    stats: Type.Object({
      runs: Count,
      totalWords: Count,
      totalPages: Count,
      totalDuration: Count,
      latestRunDuration: Count,
      latestPages: Count,
      latestWords: Count,
    }),
    permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { $id: 'TranslationSettings' },
);
export type PresentedTranslation = Static<typeof Translation>;

export const TranslationIdParams = Type.Object({ organizationId: Type.String({ minLength: 1 }), translationId: Type.String({ minLength: 1 }) });

export const ListTranslationsQuery = ListQuery;

const settingsFields = {
  languages: Type.Optional(TranslationLanguages),
  source: Type.Optional(TranslationSource),
  language: Type.Optional(Type.Union([TranslationLanguage], { description: 'One target language (the official spec\'s field); added to `languages`' })),
  instructions: Type.Optional(InstructionsDocument),
};

export const CreateTranslationBody = Type.Object({ title: TranslationTitle, ...settingsFields });
export const UpdateTranslationBody = Type.Object({ title: TranslationTitle, ...settingsFields });
export type TranslationSettingsBody = Static<typeof CreateTranslationBody>;

export const TranslationPageState = Type.Union([Type.Literal('translated'), Type.Literal('needs-translation'), Type.Literal('outdated')], {
  description: '`translated` by the provider; `needs-translation`: a copy of the source text; `outdated`: the source changed after a person translated the page',
});

export const TranslationPage = Type.Object(
  {
    object: Type.Literal('translation-page'),
    language: Type.String(),
    sourcePage: Type.String({ description: 'ID of the page in the source space' }),
    space: Type.String({ description: 'ID of the target space' }),
    page: Type.String({ description: 'ID of its counterpart in the target space' }),
    state: TranslationPageState,
    updatedAt: Timestamp,
  },
  { $id: 'TranslationPage' },
);

export const ListTranslationPagesQuery = Type.Object({
  ...ListQuery.properties,
  language: Type.Optional(TranslationLanguage),
  state: Type.Optional(TranslationPageState),
});

/** The translation glossary (official `GlossaryEntry`): a term and how each language says it. */
export const GlossaryTranslations = Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\n\\r]*$' }), {
  description: 'Language code → the term in that language',
});

export const GlossaryEntry = Type.Object({
  object: Type.Literal('glossary-entry'),
  id: Type.String(),
  translations: GlossaryTranslations,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});

export const GlossaryEntryIdParams = Type.Object({ organizationId: Type.String({ minLength: 1 }), glossaryEntryId: Type.String({ minLength: 1 }) });

export const ListGlossaryQuery = Type.Object({
  ...ListQuery.properties,
  orderBy: Type.Optional(Type.Unsafe<Static<typeof TranslationLanguage>>({ ...TranslationLanguage, description: 'Sort by the term in this language (entries without one last)' })),
});

export const GlossaryBatchBody = Type.Object({
  operations: Type.Array(
    Type.Union([
      Type.Object({ type: Type.Literal('insert'), translations: GlossaryTranslations }),
      Type.Object({ type: Type.Literal('update'), id: Type.String({ minLength: 1 }), translations: GlossaryTranslations }),
      Type.Object({ type: Type.Literal('delete'), id: Type.String({ minLength: 1 }) }),
    ]),
    { maxItems: 1000 },
  ),
});
