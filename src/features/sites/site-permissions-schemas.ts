import { Type } from 'typebox';
import { ListQuery, Timestamp } from '../../platform/schemas.ts';
import { Role, RoleOrGuest } from '../access/schemas.ts';
import { Team } from '../teams/schemas.ts';
import { User } from '../users/schemas.ts';
import { SiteIdParams } from './schemas.ts';

/* The shapes of the official site-permissions operations (@gitbook/api 0.202.0). */

const Ids = (what: string) => Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 1000, description: `Ids of ${what}` }));

export const InviteToSiteBody = Type.Object({
  // null takes away what was given.
  role: RoleOrGuest,
  users: Ids('members of the organization (guests included)'),
  teams: Ids('teams of the organization'),
});

export const UpdateSiteGrantBody = Type.Object({ role: RoleOrGuest });

export const UserSitePermissionOverride = Type.Object({ permission: RoleOrGuest, user: User });
export const TeamSitePermissionOverride = Type.Object({ permission: RoleOrGuest, team: Team });

const Origin = Type.Union([
  Type.Object({ type: Type.Literal('organization'), organization: Type.String() }),
  Type.Object({ type: Type.Literal('space'), space: Type.String() }),
  Type.Object({
    type: Type.Literal('site'),
    site: Type.String(),
    reason: Type.Union([Type.Literal('member'), Type.Literal('team'), Type.Literal('default')]),
    team: Type.Optional(Type.String({ description: 'The team whose grant gives the role' })),
  }),
], { description: 'Where the role comes from: the organization (its admins), a space of the site the member reads, or the site itself' });

export const UserSitePermission = Type.Object({
  permission: RoleOrGuest,
  user: User,
  origin: Origin,
  disabled: Type.Boolean({ description: 'Whether the member is disabled' }),
  lastSeenAt: Type.Optional(Timestamp),
});

export const SiteAggregateQuery = Type.Object({
  ...ListQuery.properties,
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Order of the list (default desc)' })),
  role: Type.Optional(Type.Union([Role, Type.Literal('guest')], { description: 'Only members holding this role on the site' })),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Only members whose name or e-mail contains this' })),
  sort: Type.Optional(Type.Union([Type.Literal('joinedAt'), Type.Literal('lastSeenAt'), Type.Literal('name')], { description: 'What the list is sorted by (default joinedAt)' })),
  team: Type.Optional(Type.String({ minLength: 1, description: 'Only members of this team' })),
});

const Id = Type.String({ minLength: 1 });
export const SiteUserParams = Type.Object({ ...SiteIdParams.properties, userId: Id });
export const SiteTeamParams = Type.Object({ ...SiteIdParams.properties, teamId: Id });
