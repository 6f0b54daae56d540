import { Type } from 'typebox';
import { Timestamp } from '../../platform/schemas.ts';
import { RoleOrGuest } from '../access/schemas.ts';

const ReviewerRule = (rule: string) => Type.Object({ rule: Type.Literal(rule), users: Type.Array(Type.String()) });
export const MergeRule = Type.Union([
  ReviewerRule('require_specific_reviewers'),
  ReviewerRule('require_one_of_specific_reviewers'),
  ReviewerRule('allow_bypass'),
  Type.Object({
    rule: Type.Union(
      [
        'require_at_least_one_review',
        'require_all_reviews_approved',
        'require_agent_review',
        'require_up_to_date_change_request',
        'require_change_request_subject',
        'require_change_request_description',
      ].map((r) => Type.Literal(r)),
    ),
  }),
]);
export const MergeRulesStandalone = Type.Union([
  Type.Object({ type: Type.Literal('rules'), rules: Type.Array(MergeRule) }),
  Type.Object({ type: Type.Literal('none') }),
]);

export const OrganizationTitle = Type.String({ minLength: 2, maxLength: 255 });
export const OrganizationHostname = Type.String({ minLength: 3, maxLength: 32, pattern: '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$' });
const SitePointer = Type.Object({ type: Type.Literal('site'), site: Type.String() });

export const OrganizationPermissions = Type.Object({
  view: Type.Boolean(),
  admin: Type.Boolean(),
  ownTeam: Type.Boolean(),
  createContent: Type.Boolean(),
  createOpenAPISpec: Type.Boolean(),
  ingestConversations: Type.Boolean(),
  viewBilling: Type.Boolean(),
  listMembers: Type.Boolean(),
  listTeams: Type.Boolean(),
  listIntegrations: Type.Boolean(),
  listInstallations: Type.Boolean(),
  installIntegration: Type.Boolean(),
});

export const Organization = Type.Object(
  {
    object: Type.Literal('organization'),
    id: Type.String(),
    title: Type.String(),
    createdAt: Timestamp,
    emailDomains: Type.Array(Type.String()),
    hostname: Type.Optional(Type.String()),
    type: Type.Union([Type.Literal('business'), Type.Literal('community')]),
    useCase: Type.Optional(Type.String()),
    defaultRole: Type.Optional(RoleOrGuest),
    defaultContent: Type.Optional(SitePointer),
    sso: Type.Boolean(),
    ai: Type.Boolean(),
    inviteLinks: Type.Boolean(),
    plan: Type.String(),
    mergeRules: MergeRulesStandalone,
    urls: Type.Object({
      location: Type.String({ format: 'uri' }),
      app: Type.String({ format: 'uri' }),
      logo: Type.Optional(Type.String({ format: 'uri' })),
    }),
    trial: Type.Object({ status: Type.String() }),
    permissions: OrganizationPermissions,
  },
  { $id: 'Organization' },
);

export const CreateOrganizationBody = Type.Object({
  title: OrganizationTitle,
  emailDomains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 })),
});

export const UpdateOrganizationBody = Type.Object({
  title: Type.Optional(OrganizationTitle),
  emailDomains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 })),
  hostname: Type.Optional(OrganizationHostname),
  defaultRole: Type.Optional(RoleOrGuest),
  defaultContent: Type.Optional(Type.Union([SitePointer, Type.Null()])),
  logo: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()])),
  sso: Type.Optional(Type.Boolean()),
  ai: Type.Optional(Type.Boolean()),
  inviteLinks: Type.Optional(Type.Boolean()),
  mergeRules: Type.Optional(MergeRulesStandalone),
});

/** The official Subdomain: a subdomain and the organization it points to (the only target the spec has). */
export const Subdomain = Type.Object({
  object: Type.Literal('subdomain'),
  subdomain: OrganizationHostname,
  target: Type.Object({ type: Type.Literal('organization'), organization: Type.String() }),
  isActive: Type.Boolean(),
});
