import { Type, type Static } from 'typebox';
import { ListQuery, literalUnion, Timestamp } from '../../platform/schemas.ts';
import { Organization } from '../organizations/schemas.ts';
import { Space } from '../spaces/schemas.ts';
import { Site } from '../sites/schemas.ts';

/** Integrations, their installations and tokens (issue 17), with the official spec's names and shapes. */

export const INTEGRATION_SCOPES = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:adaptive:read',
  'site:adaptive:write',
  'openapi:read',
  'openapi:write',
  'conversations:ingest',
] as const;
export type IntegrationScope = (typeof INTEGRATION_SCOPES)[number];

export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const;
export const INTEGRATION_CATEGORIES = ['analytics', 'collaboration', 'content', 'gitsync', 'marketing', 'visitor-auth', 'other'] as const;

export const IntegrationName = Type.String({ pattern: '^[a-zA-Z0-9-_.]+$', minLength: 1, maxLength: 100, description: 'Name of the integration' });
export const IntegrationNameParams = Type.Object({ integrationName: IntegrationName });
export const InstallationParams = Type.Object({ integrationName: IntegrationName, installationId: Type.String({ minLength: 1 }) });
export const SpaceInstallationParams = Type.Object({ ...InstallationParams.properties, spaceId: Type.String({ minLength: 1 }) });
export const SiteInstallationParams = Type.Object({ ...InstallationParams.properties, siteId: Type.String({ minLength: 1 }) });

const Scope = literalUnion(INTEGRATION_SCOPES);
const Target = literalUnion(INTEGRATION_TARGETS);
const Visibility = literalUnion(INTEGRATION_VISIBILITIES);
const Category = literalUnion(INTEGRATION_CATEGORIES);

export const IntegrationBlock = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    title: Type.String({ minLength: 2, maxLength: 40 }),
    description: Type.Optional(Type.String({ maxLength: 150 })),
    icon: Type.Optional(Type.String({ maxLength: 2048 })),
    urlUnfurl: Type.Optional(Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 20 })),
    markdown: Type.Optional(Type.Object({ codeblock: Type.String(), body: Type.String() })),
  },
  { additionalProperties: false },
);

export const IntegrationContentSource = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    title: Type.String({ minLength: 2, maxLength: 40 }),
    description: Type.Optional(Type.String({ maxLength: 150 })),
    icon: Type.Optional(Type.String({ maxLength: 2048 })),
    configuration: Type.Object({ componentId: Type.String() }),
  },
  { additionalProperties: false },
);

/**
 * A configuration schema of the manifest (`configurations.account|space|site`): JSON-schema-like (an object
 * with `properties`, `required`), or a ContentKit component that renders the form. Kept as given.
 */
export const IntegrationConfiguration = Type.Object({}, { additionalProperties: true });

export const IntegrationConfigurations = Type.Object(
  {
    account: Type.Optional(IntegrationConfiguration),
    space: Type.Optional(IntegrationConfiguration),
    site: Type.Optional(IntegrationConfiguration),
  },
  { additionalProperties: false },
);

export const ExternalLinks = Type.Array(Type.Object({ url: Type.String({ format: 'uri', maxLength: 2048 }), label: Type.String({ maxLength: 100 }) }), { maxItems: 5 });

const ContentSecurityPolicy = Type.Union([Type.String({ maxLength: 4096 }), Type.Record(Type.String(), Type.String({ maxLength: 2048 }))]);

/** Base64 of an image: at most ~1.5 MB of text (1 MB of bytes). */
const Base64Image = Type.String({ maxLength: 1_500_000, pattern: '^[A-Za-z0-9+/_-]*={0,2}$' });

export const PublishIntegrationBody = Type.Object(
  {
    runtime: Type.Optional(literalUnion(['v1', 'v2'])),
    icon: Type.Optional(Base64Image),
    title: Type.String({ minLength: 2, maxLength: 30 }),
    description: Type.String({ maxLength: 100 }),
    summary: Type.Optional(Type.String({ maxLength: 2048 })),
    previewImages: Type.Optional(Type.Array(Base64Image, { maxItems: 3 })),
    visibility: Type.Optional(Visibility),
    target: Type.Optional(Target),
    scopes: Type.Array(Scope, { maxItems: INTEGRATION_SCOPES.length, uniqueItems: true }),
    categories: Type.Optional(Type.Array(Category, { uniqueItems: true })),
    blocks: Type.Optional(Type.Array(IntegrationBlock, { maxItems: 50 })),
    contentSources: Type.Optional(Type.Array(IntegrationContentSource, { maxItems: 50 })),
    externalLinks: Type.Optional(ExternalLinks),
    configurations: Type.Optional(IntegrationConfigurations),
    // Required by the official spec; optional here, since an integration may answer at its `endpoint` instead.
    script: Type.Optional(Type.String({ maxLength: 5_000_000 })),
    organization: Type.String({ minLength: 1, description: 'ID or subdomain (hostname) of the publishing organization' }),
    secrets: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 10_000 }), { maxProperties: 20 })),
    contentSecurityPolicy: Type.Optional(ContentSecurityPolicy),
    endpoint: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        description: 'Quire extension: the http(s) URL events and render requests go to when the integration has no script and no development tunnel',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PublishIntegrationInput = Static<typeof PublishIntegrationBody>;

export const Integration = Type.Object(
  {
    object: Type.Literal('integration'),
    name: Type.String(),
    version: Type.Number(),
    runtime: Type.String(),
    title: Type.String(),
    description: Type.String(),
    summary: Type.String(),
    previewImages: Type.Array(Type.String()),
    target: Target,
    verified: Type.Boolean(),
    visibility: Visibility,
    scopes: Type.Array(Scope),
    categories: Type.Array(Category),
    blocks: Type.Array(IntegrationBlock),
    contentSources: Type.Array(IntegrationContentSource),
    configurations: IntegrationConfigurations,
    externalLinks: ExternalLinks,
    owner: Type.Object(Organization.properties),
    urls: Type.Object({
      location: Type.String({ format: 'uri' }),
      icon: Type.Optional(Type.String({ format: 'uri' })),
      app: Type.String({ format: 'uri' }),
      assets: Type.String({ format: 'uri' }),
      publicEndpoint: Type.String({ format: 'uri' }),
    }),
    permissions: Type.Object({ admin: Type.Boolean() }),
    contentSecurityPolicy: Type.Optional(ContentSecurityPolicy),
    endpoint: Type.Optional(Type.String({ description: 'Quire extension, shown to admins of the owner organization only' })),
    development: Type.Optional(
      Type.Object({ tunnelUrl: Type.String(), all: Type.Boolean() }, { description: 'Quire extension: development mode, shown to admins of the owner organization only' }),
    ),
    signingSecret: Type.Optional(
      Type.String({ description: 'Quire extension: the key event deliveries are signed with; in the response of a publish, to admins of the owner organization only' }),
    ),
  },
  { $id: 'Integration' },
);
export type PresentedIntegration = Static<typeof Integration>;

export const ListIntegrationsQuery = Type.Object({
  ...ListQuery.properties,
  search: Type.Optional(Type.String({ maxLength: 100, description: 'Filter by name or title' })),
  category: Type.Optional(Category),
  blockDomain: Type.Optional(Type.String({ pattern: '^[a-zA-Z0-9-_.]+$', maxLength: 100, description: 'Integrations with a block unfurling URLs of this domain' })),
  blocks: Type.Optional(Type.Boolean()),
  contentSources: Type.Optional(Type.Boolean()),
  owner: Type.Optional(Type.String({ maxLength: 100, description: 'Only integrations owned by this organization' })),
  scope: Type.Optional(Scope),
  target: Type.Optional(Target),
});
export type ListIntegrationsFilters = Static<typeof ListIntegrationsQuery>;

export const INSTALLATION_STATUSES = ['active', 'pending', 'paused'] as const;
const Status = literalUnion(INSTALLATION_STATUSES);
const Selection = literalUnion(['all', 'selected']);
const ExternalIds = Type.Array(Type.String({ maxLength: 200 }), { maxItems: 5 });
const Configuration = Type.Record(Type.String(), Type.Unknown());

export const IntegrationInstallation = Type.Object(
  {
    id: Type.String(),
    status: Status,
    space_selection: Selection,
    site_selection: Selection,
    spaces: Type.Number(),
    configuration: Configuration,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    urls: Type.Object({ location: Type.String({ format: 'uri' }), app: Type.String({ format: 'uri' }), publicEndpoint: Type.String({ format: 'uri' }) }),
    externalIds: ExternalIds,
    target: Type.Object({ organization: Type.String() }),
  },
  { $id: 'IntegrationInstallation' },
);
export type PresentedInstallation = Static<typeof IntegrationInstallation>;

export const InstallIntegrationBody = Type.Object({ organization: Type.String({ minLength: 1 }) }, { additionalProperties: false });

export const UpdateInstallationBody = Type.Object(
  {
    externalIds: Type.Optional(ExternalIds),
    configuration: Type.Optional(Configuration),
    space_selection: Type.Optional(Selection),
    site_selection: Type.Optional(Selection),
  },
  { additionalProperties: false },
);
export type UpdateInstallationInput = Static<typeof UpdateInstallationBody>;

const contentInstallation = {
  integration: Type.String(),
  installation: Type.String(),
  status: Status,
  configuration: Configuration,
  externalIds: ExternalIds,
  urls: Type.Object({ location: Type.String({ format: 'uri' }), publicEndpoint: Type.String({ format: 'uri' }) }),
};

export const IntegrationSpaceInstallation = Type.Object({ ...contentInstallation, space: Type.Union([Type.String(), Type.Object(Space.properties)]) }, { $id: 'IntegrationSpaceInstallation' });
export const IntegrationSiteInstallation = Type.Object({ ...contentInstallation, site: Type.Union([Type.String(), Type.Object(Site.properties)]) }, { $id: 'IntegrationSiteInstallation' });

export const InstallOnSpaceBody = Type.Object(
  {
    space: Type.String({ minLength: 1, description: 'ID of the space to install the integration on' }),
    configuration: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Quire extension: the space configuration (checked against configurations.space)' })),
    externalIds: Type.Optional(ExternalIds),
  },
  { additionalProperties: false },
);
export const InstallOnSiteBody = Type.Object(
  {
    siteId: Type.String({ minLength: 1, description: 'ID of the site to install the integration on' }),
    configuration: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Quire extension: the site configuration (checked against configurations.site)' })),
    externalIds: Type.Optional(ExternalIds),
  },
  { additionalProperties: false },
);
/** The official UpdateIntegrationSpaceInstallation and UpdateIntegrationSiteInstallation (the same object). */
export const UpdateContentInstallationBody = Type.Object(
  {
    externalIds: Type.Optional(ExternalIds),
    configuration: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Checked against the manifest’s configurations.space or .site' })),
  },
  { additionalProperties: false },
);
export const ExtendedQuery = Type.Object({ extended: Type.Optional(Type.Boolean({ default: false })) });

export const ListInstallationsQuery = Type.Object({ ...ListQuery.properties, externalId: Type.Optional(Type.String({ maxLength: 200 })) });
export const ListInstallationContentQuery = Type.Object({
  ...ListQuery.properties,
  extended: Type.Optional(Type.Boolean({ default: false, description: 'Space or Site objects instead of their ids' })),
});
export const ListContentInstallationsQuery = Type.Object({
  ...ListQuery.properties,
  externalId: Type.Optional(Type.String({ maxLength: 200 })),
  extended: Type.Optional(Type.Boolean({ default: false, description: 'Space or Site objects instead of their ids' })),
});

export const DevelopmentModeBody = Type.Object(
  {
    tunnelUrl: Type.String({ minLength: 1, maxLength: 256, format: 'uri' }),
    all: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

export const InstallationToken = Type.Object({ token: Type.String() }, { $id: 'APITemporaryToken' });

export const IconParams = Type.Object({ integrationName: IntegrationName, hash: Type.String({ pattern: '^[0-9a-f]{64}$' }) });

// ---- What is installed in an organization, on a space, on a site (installed.ts) ----

export const OrganizationParams = Type.Object({ organizationId: Type.String({ minLength: 1 }) });
export const OrganizationIntegrationParams = Type.Object({ organizationId: Type.String({ minLength: 1 }), integrationName: IntegrationName });
export const OrganizationSiteParams = Type.Object({ organizationId: Type.String({ minLength: 1 }), siteId: Type.String({ minLength: 1 }) });
export const SpaceParams = Type.Object({ spaceId: Type.String({ minLength: 1 }) });

/** The official `search` of the installed-integrations listings: a part of the integration's name or title. */
export const IntegrationSearchQuery = Type.Object({ search: Type.Optional(Type.String({ maxLength: 100, description: 'Filter by name or title' })) });

export const IntegrationInstallationStatus = Type.Object({ status: Status });

export const INSTALLED_TARGETS = ['organization', 'space', 'site'] as const;

export const ListInstalledIntegrationsQuery = Type.Object({
  ...ListQuery.properties,
  target: Type.Optional(literalUnion(INSTALLED_TARGETS)),
  site: Type.Optional(Type.String({ minLength: 1, description: 'Only the installations on this site (with target site)' })),
  space: Type.Optional(Type.String({ minLength: 1, description: 'Only the installations on this space (with target space)' })),
});
export type ListInstalledIntegrationsFilters = Static<typeof ListInstalledIntegrationsQuery>;

/** The official `InstalledIntegration`: an installation's status and integration, and what it is installed on. */
export const InstalledIntegration = Type.Object({
  status: Status,
  integration: Type.Object(Integration.properties),
  target: Type.Union([
    Type.Object({ type: Type.Literal('organization'), organizationId: Type.String() }),
    Type.Object({ type: Type.Literal('space'), spaceId: Type.String() }),
    Type.Object({ type: Type.Literal('site'), siteId: Type.String() }),
  ]),
});

export const ListOrganizationInstallationsQuery = Type.Object({ ...ListQuery.properties, ...IntegrationSearchQuery.properties });

export const OrganizationInstallation = Type.Object({
  installation: Type.Object(IntegrationInstallation.properties),
  integration: Type.Object(Integration.properties),
});

/** The official `SpaceIntegrationBlocks`: the blocks of each integration installed on the space. */
export const SpaceIntegrationBlocks = Type.Array(Type.Object({ name: Type.String(), blocks: Type.Array(IntegrationBlock) }));
