import { Type } from 'typebox';
import { ListQuery, OrganizationIdParams } from '../../platform/schemas.ts';
import { Space } from '../spaces/schemas.ts';

// Limits are the seed's (shared/spec/seed-api.md, "Limits").
export const SiteType = Type.Union([
  Type.Literal('basic'),
  Type.Literal('premium'),
  Type.Literal('ultimate'),
  Type.Literal('sponsored'),
  Type.Literal('legacy-basic'),
  Type.Literal('legacy-premium'),
]);
export const SiteTitle = Type.String({ minLength: 2, maxLength: 128 });
export const SiteVisibility = Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('share-link'), Type.Literal('visitor-auth')]);
export const SiteAgentsContext = Type.Union([Type.Literal('excluded'), Type.Literal('included')]);
export const SiteBasename = Type.String({ minLength: 1, maxLength: 100, description: 'URL-safe: letters, digits, "-", "_", "."' });
// The spec's SiteHostname; a name of at least three labels (docs.example.com), lower case.
export const SiteHostname = Type.String({
  maxLength: 253,
  pattern: '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$',
});
export const SiteProxyOrigin = Type.String({ pattern: '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$', maxLength: 512 });
export const Expression = Type.String({ minLength: 1, maxLength: 1024, description: 'Expression over visitor claims, e.g. visitor.claims.unsigned.isBetaUser == true' });
export const Icon = Type.String({ maxLength: 50 });
export const Path = Type.String({ minLength: 1, maxLength: 100 });
export const SectionTitle = Type.String({ minLength: 2, maxLength: 128 });
export const SectionGroupTitle = Type.String({ minLength: 1, maxLength: 100 });
export const SectionDescription = Type.String({ maxLength: 256 });
export const ShareLinkName = Type.String({ maxLength: 50 });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, options?: { description: string }) => Type.Union([schema, Type.Null()], options);
// Embedded objects carry no $id: one response may hold the same schema many times (a structure's sections).
const EmbeddedSpace = Type.Object(Space.properties);
const PublishedUrls = Type.Object({ published: Type.Optional(Type.String({ format: 'uri' })) });

export const SiteIdParams = Type.Object({ ...OrganizationIdParams.properties, siteId: Type.String({ minLength: 1 }) });
export const SiteSpaceIdParams = Type.Object({ ...SiteIdParams.properties, siteSpaceId: Type.String({ minLength: 1 }) });
export const SiteSectionIdParams = Type.Object({ ...SiteIdParams.properties, siteSectionId: Type.String({ minLength: 1 }) });
export const SiteSectionGroupIdParams = Type.Object({ ...SiteIdParams.properties, siteSectionGroupId: Type.String({ minLength: 1 }) });
export const GroupSectionParams = Type.Object({ ...SiteSectionGroupIdParams.properties, siteSectionId: Type.String({ minLength: 1 }) });
export const ShareLinkIdParams = Type.Object({ ...SiteIdParams.properties, shareLinkId: Type.String({ minLength: 1 }) });

export const Site = Type.Object(
  {
    object: Type.Literal('site'),
    id: Type.String(),
    type: SiteType,
    title: Type.String(),
    hostname: Type.Optional(Type.String()),
    basename: Type.Optional(Type.String()),
    proxy: Type.Optional(Type.Object({ origin: Type.String(), target: Type.String() })),
    visibility: SiteVisibility,
    published: Type.Boolean(),
    siteSpaces: Type.Number({ description: 'Site-spaces whose space is not in the trash' }),
    createdAt: Type.String({ format: 'date-time' }),
    adaptiveContent: Type.Object({ enabled: Type.Boolean() }),
    agentsContext: SiteAgentsContext,
    features: Type.Array(Type.Object({ id: Type.String(), plan: SiteType, frozen: Type.Boolean() })),
    urls: Type.Object({
      location: Type.String({ format: 'uri' }),
      app: Type.String({ format: 'uri' }),
      published: Type.Optional(Type.String({ format: 'uri', description: 'Only when the site is published' })),
    }),
  },
  { $id: 'Site' },
);

export const SiteSpace = Type.Object(
  {
    object: Type.Literal('site-space'),
    id: Type.String(),
    path: Type.String(),
    section: Type.Optional(Type.String()),
    space: EmbeddedSpace,
    title: Type.String(),
    default: Type.Boolean(),
    condition: Type.Optional(Type.String()),
    draft: Type.Boolean({ description: 'Always false: site-spaces of this server are live once added' }),
    urls: PublishedUrls,
  },
);

export const SiteSection = Type.Object(
  {
    object: Type.Literal('site-section'),
    id: Type.String(),
    title: Type.String(),
    description: Type.Optional(Type.String()),
    default: Type.Boolean(),
    path: Type.String(),
    condition: Type.Optional(Type.String()),
    sectionGroup: Type.Optional(Type.String()),
    icon: Type.Optional(Type.String()),
    siteSpaces: Type.Array(SiteSpace),
    urls: PublishedUrls,
  },
);

const Localized = Type.Record(Type.String(), Type.String());

// The official SiteExternalLink (0.202.0): an entry of a site's structure that leads elsewhere.
export const SiteExternalLink = Type.Object({
  object: Type.Literal('site-external-link'),
  id: Type.String(),
  title: Type.String(),
  localizedTitle: Type.Optional(Localized),
  description: Type.Optional(Type.String()),
  localizedDescription: Type.Optional(Localized),
  icon: Type.Optional(Type.String()),
  url: Type.String({ format: 'uri' }),
  sectionGroup: Type.Optional(Type.String()),
  draft: Type.Boolean({ description: 'A draft link is in the structure but not shown to visitors' }),
  condition: Type.Optional(Type.String()),
});

export const SiteSectionGroup = Type.Object(
  {
    object: Type.Literal('site-section-group'),
    id: Type.String(),
    title: Type.String(),
    icon: Type.Optional(Type.String()),
    sections: Type.Array(SiteSection),
    children: Type.Array(Type.Union([SiteSection, SiteExternalLink]), { description: 'Its sections and external links, in order' }),
  },
);

export const ShareLink = Type.Object(
  {
    object: Type.Literal('share-link'),
    id: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    name: Type.String(),
    active: Type.Boolean(),
    urls: Type.Object({ published: Type.String({ format: 'uri', description: 'The site URL carrying the secret key' }) }),
  },
  { $id: 'ShareLink' },
);

export const SiteStructure = Type.Union([
  Type.Object({ type: Type.Literal('sections'), structure: Type.Array(Type.Union([SiteSection, SiteSectionGroup, SiteExternalLink])) }),
  Type.Object({ type: Type.Literal('siteSpaces'), structure: Type.Array(SiteSpace) }),
]);

// --- Bodies and queries

export const ListSitesQuery = Type.Object({
  ...ListQuery.properties,
  space: Type.Optional(Type.String({ description: 'Only sites that publish this space' })),
  title: Type.Optional(Type.String({ maxLength: 128, description: 'Only sites whose title contains this text (case-insensitive)' })),
  published: Type.Optional(Type.Boolean()),
  type: Type.Optional(Type.Array(SiteType)),
});

export const CreateSiteBody = Type.Object({
  type: Type.Optional(SiteType),
  title: Type.Optional(SiteTitle),
  visibility: Type.Optional(SiteVisibility),
  spaces: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 100, description: 'Ids of spaces to add as site-spaces' })),
});

export const UpdateSiteBody = Type.Object({
  title: Type.Optional(SiteTitle),
  visibility: Type.Optional(SiteVisibility),
  basename: Type.Optional(SiteBasename),
  adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
  agentsContext: Type.Optional(SiteAgentsContext),
  defaultSiteSpace: Type.Optional(Type.String({ minLength: 1 })),
  defaultSiteSection: Type.Optional(Type.String({ minLength: 1 })),
  proxy: Type.Optional(Nullable(SiteProxyOrigin)),
  hostname: Type.Optional(
    Nullable(SiteHostname, {
      description:
        'Extension (x-quire-extension): the custom domain the site answers at, at its root (its DNS must point at this server); null removes it',
    }),
  ),
});

export const ShareKeyQuery = Type.Object({ shareKey: Type.Optional(Type.String({ maxLength: 200 })) });
export const ListWithShareKeyQuery = Type.Object({ ...ListQuery.properties, ...ShareKeyQuery.properties });
export const ListSiteSpacesQuery = Type.Object({ ...ListWithShareKeyQuery.properties, default: Type.Optional(Type.Boolean()) });

export const DuplicateSiteSpaceBody = Type.Object({
  draft: Type.Optional(Type.Boolean({ default: false, description: 'Create the copy as a draft: refused, this server has no draft site-spaces' })),
});
export const AddSiteSpaceBody = Type.Object({ spaceId: Type.String({ minLength: 1 }), sectionId: Type.Optional(Type.String({ minLength: 1 })) });
export const UpdateSiteSpaceBody = Type.Object({
  path: Type.Optional(Path),
  condition: Type.Optional(Nullable(Expression)),
  spaceId: Type.Optional(Type.String({ minLength: 1 })),
});

export const AddSectionBody = Type.Object({
  spaceId: Type.String({ minLength: 1 }),
  title: Type.Optional(Nullable(SectionTitle)),
  icon: Type.Optional(Nullable(Icon)),
});
export const UpdateSectionBody = Type.Object({
  title: Type.Optional(SectionTitle),
  path: Type.Optional(Path),
  defaultSiteSpace: Type.Optional(Type.String({ minLength: 1 })),
  condition: Type.Optional(Nullable(Expression)),
  icon: Type.Optional(Nullable(Icon)),
  description: Type.Optional(Nullable(SectionDescription)),
});

export const AddSectionGroupBody = Type.Object({
  title: SectionGroupTitle,
  icon: Type.Optional(Nullable(Icon)),
  sections: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 100 })),
});
export const UpdateSectionGroupBody = Type.Object({ title: Type.Optional(SectionGroupTitle), icon: Type.Optional(Nullable(Icon)) });
export const AddSectionToGroupBody = Type.Object({ sectionId: Type.String({ minLength: 1 }) });

const pointer = <K extends string, F extends string>(type: K, field: F) =>
  Type.Object({ type: Type.Literal(type), [field]: Type.String({ minLength: 1 }) } as { type: ReturnType<typeof Type.Literal<K>> } & Record<F, ReturnType<typeof Type.String>>);
export const MoveSiteSpaceBody = Type.Object({
  position: Type.Optional(Type.Object({ before: Type.Optional(pointer('site-space', 'siteSpace')), after: Type.Optional(pointer('site-space', 'siteSpace')) })),
});
export const MoveSectionBody = Type.Object({
  position: Type.Optional(Type.Object({ before: Type.Optional(pointer('site-section', 'siteSection')), after: Type.Optional(pointer('site-section', 'siteSection')) })),
});
const GroupPointer = Type.Object({ type: Type.Union([Type.Literal('site-section'), Type.Literal('site-section-group')]), id: Type.String({ minLength: 1 }) });
export const MoveSectionGroupBody = Type.Object({ position: Type.Optional(Type.Object({ before: Type.Optional(GroupPointer), after: Type.Optional(GroupPointer) })) });

export const StructurePointer = Type.Object({
  type: Type.Union([Type.Literal('site-space'), Type.Literal('site-section'), Type.Literal('site-section-group')]),
  id: Type.String({ minLength: 1 }),
});
export const SortStructureBody = Type.Object({
  item: StructurePointer,
  position: Type.Object({ before: Type.Optional(StructurePointer), after: Type.Optional(StructurePointer) }),
});

export const CreateShareLinkBody = Type.Object({ name: ShareLinkName });
export const UpdateShareLinkBody = Type.Object({ active: Type.Optional(Type.Boolean()), name: Type.Optional(ShareLinkName) }, { minProperties: 1 });

export const SiteExternalLinkIdParams = Type.Object({ ...SiteIdParams.properties, siteExternalLinkId: Type.String({ minLength: 1 }) });
const ExternalLinkUrl = Type.String({ format: 'uri', maxLength: 2048, description: 'Absolute HTTP or HTTPS URL' });
// The spec's TranslationLanguage: the languages a localized title may be given in.
const TRANSLATION_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl'];
const LocalizedString = (maxLength: number) =>
  Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string', maxLength }, propertyNames: { enum: TRANSLATION_LANGUAGES } });

export const AddExternalLinkBody = Type.Object({
  title: SectionTitle,
  localizedTitle: Type.Optional(LocalizedString(128)),
  description: Type.Optional(Nullable(SectionDescription)),
  localizedDescription: Type.Optional(Nullable(LocalizedString(256))),
  icon: Type.Optional(Nullable(Icon)),
  url: ExternalLinkUrl,
  parent: Type.Optional(Type.String({ minLength: 1, description: 'The section group to put the link in; the top level when absent' })),
  draft: Type.Optional(Type.Boolean()),
  condition: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
});

export const UpdateExternalLinkBody = Type.Object({
  title: Type.Optional(SectionTitle),
  localizedTitle: Type.Optional(Nullable(LocalizedString(128))),
  description: Type.Optional(Nullable(SectionDescription)),
  localizedDescription: Type.Optional(Nullable(LocalizedString(256))),
  icon: Type.Optional(Nullable(Icon)),
  url: Type.Optional(ExternalLinkUrl),
  parent: Type.Optional(Nullable(Type.String({ minLength: 1 }), { description: 'The section group to move the link into; null: the top level' })),
  draft: Type.Optional(Type.Boolean()),
  condition: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
});

export const ReturnPreferenceHeaders = Type.Object({ prefer: Type.Optional(Type.String({ description: '"return=minimal" answers 204 without a body' })) });
