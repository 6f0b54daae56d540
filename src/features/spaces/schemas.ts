import { Type, type Static } from 'typebox';
import { literalUnion, Timestamp } from '../../platform/schemas.ts';
import { DefaultLevel } from '../access/schemas.ts';
import { MergeRulesStandalone } from '../organizations/schemas.ts';
import { User } from '../users/schemas.ts';

export const SpaceTitle = Type.String({ maxLength: 50 });
export const Emoji = Type.String({ maxLength: 50, format: 'emoji', description: 'Emoji character(s) or their hex code points' });
export const SPACE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export const SpaceVisibility = literalUnion(SPACE_VISIBILITIES, { description: '`in-collection` only for spaces inside a collection' });
export type SpaceVisibility = Static<typeof SpaceVisibility>;
/**
 * GitBook's `live` and `locked`, and Quire's `change-requests`: live edits are off, so the content changes
 * only through change requests (GitBook's "locked live edits"); `locked` refuses every edit.
 */
export const SpaceEditMode = literalUnion(['live', 'locked', 'change-requests']);
export type SpaceEditMode = Static<typeof SpaceEditMode>;
export const SpaceMergeRules = Type.Union([Type.Object({ type: Type.Literal('inherit') }), MergeRulesStandalone]);
// prettier-ignore
export const TRANSLATION_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl'] as const;
export const TranslationLanguage = literalUnion(TRANSLATION_LANGUAGES);
export type TranslationLanguage = Static<typeof TranslationLanguage>;

export const Space = Type.Object(
  {
    object: Type.Literal('space'),
    id: Type.String(),
    title: Type.String(),
    emoji: Type.String(),
    visibility: SpaceVisibility,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: Type.Optional(Timestamp),
    editMode: Type.Optional(SpaceEditMode),
    mergeRules: SpaceMergeRules,
    urls: Type.Object({
      location: Type.String({ format: 'uri' }),
      app: Type.String({ format: 'uri' }),
      published: Type.Optional(Type.String({ format: 'uri' })),
      public: Type.Optional(Type.String({ format: 'uri' })),
      icon: Type.Optional(Type.String({ format: 'uri' })),
    }),
    organization: Type.String(),
    parent: Type.Optional(Type.String()),
    language: Type.Optional(TranslationLanguage),
    revision: Type.String(),
    defaultLevel: DefaultLevel,
    comments: Type.Number(),
    changeRequests: Type.Number(),
    changeRequestsOpen: Type.Number(),
    changeRequestsDraft: Type.Number(),
    permissions: Type.Object({
      view: Type.Boolean(),
      access: Type.Boolean(),
      admin: Type.Boolean(),
      viewInviteLinks: Type.Boolean(),
      edit: Type.Boolean(),
      triggerGitSync: Type.Boolean(),
      comment: Type.Boolean(),
      merge: Type.Boolean(),
      review: Type.Boolean(),
      installIntegration: Type.Boolean(),
    }),
  },
  { $id: 'Space' },
);

export const CreateSpaceBody = Type.Object({
  title: Type.Optional(SpaceTitle),
  emoji: Type.Optional(Emoji),
  parent: Type.Optional(Type.String({ minLength: 1, description: 'Id of a parent collection' })),
  language: Type.Optional(TranslationLanguage),
  editMode: Type.Optional(SpaceEditMode),
  visibility: Type.Optional(SpaceVisibility),
});

export const UpdateSpaceBody = Type.Object({
  title: Type.Optional(SpaceTitle),
  emoji: Type.Optional(Type.Union([Emoji, Type.Null()])),
  icon: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()])),
  editMode: Type.Optional(SpaceEditMode),
  defaultLevel: Type.Optional(DefaultLevel),
  language: Type.Optional(TranslationLanguage),
  mergeRules: Type.Optional(SpaceMergeRules),
  visibility: Type.Optional(SpaceVisibility),
});

export const GetSpaceQuery = Type.Object({
  shareKey: Type.Optional(Type.String({ description: 'Share key of a share-link site, to resolve published URLs' })),
});

/**
 * A space in the organization's trash (x-quire-extension: the official API restores a space by id but lists no
 * deleted ones): the official Space as it was, who deleted it, and until when `restoreSpace` can bring it back.
 */
export const TrashedSpace = Type.Object({
  object: Type.Literal('trashed-space'),
  space: Space,
  deletedBy: Type.Union([User, Type.Null()], { description: 'Who deleted it (for an integration, who installed it); null when not recorded' }),
  restorableUntil: Timestamp,
});
