import { Type } from 'typebox';
import { ListQuery, Timestamp } from '../../platform/schemas.ts';
import { Role, RoleOrGuest } from '../access/schemas.ts';
import { User } from '../users/schemas.ts';
import { Space } from '../spaces/schemas.ts';
import { Team, TeamMember } from '../teams/schemas.ts';

export const Member = Type.Object(
  {
    object: Type.Literal('member'),
    id: Type.String({ description: 'The user id' }),
    role: RoleOrGuest,
    user: User,
    disabled: Type.Boolean(),
    joinedAt: Timestamp,
    lastSeenAt: Type.Optional(Timestamp),
    sso: Type.Boolean(),
    spaces: Type.Number({ description: 'Count of the spaces where the member holds a role' }),
    teams: Type.Number({ description: 'Count of the teams the member is in' }),
  },
  { $id: 'Member' },
);

export const MemberParams = Type.Object({ organizationId: Type.String({ minLength: 1 }), userId: Type.String({ minLength: 1 }) });

const Order = Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Default desc' });

export const ListMembersQuery = Type.Object({
  ...ListQuery.properties,
  order: Type.Optional(Order),
  role: Type.Optional(Type.Union([Role, Type.Literal('guest')], { description: 'Only members with this role; `guest` for guests' })),
  search: Type.Optional(Type.String({ maxLength: 256, description: 'Only members whose display name or e-mail contains this text' })),
  sort: Type.Optional(
    Type.Union([Type.Literal('joinedAt'), Type.Literal('lastSeenAt')], { description: 'Default joinedAt; lastSeenAt lists only members seen at least once' }),
  ),
});

export const ListMemberSpacesQuery = Type.Object({ ...ListQuery.properties, order: Type.Optional(Order) });

export const ListMemberTeamsQuery = Type.Object({
  ...ListQuery.properties,
  title: Type.Optional(Type.String({ maxLength: 256, description: 'Only teams whose title contains this text, case-insensitively' })),
});

export const UpdateMemberBody = Type.Object({
  role: Type.Optional(RoleOrGuest),
  // The official Member shows `disabled` but no official operation sets it.
  disabled: Type.Optional(
    Type.Boolean({ description: 'Extension (x-quire-extension): true shuts the member out of the organization (their sessions end), false lets them back in' }),
  ),
});

export const MemberSpacePermission = Type.Object({ permission: Role, space: Space });
export const MemberTeam = Type.Object({ team: Team, member: TeamMember });

export const VisitorClaimsResult = Type.Object({
  serviceVisitorClaims: Type.String({ description: 'A JWT signed by this server carrying the member claims' }),
  gitbookVisitorClaims: Type.String({ description: 'The same JWT, under the name the official client knows' }),
});

export const InviteUsersBody = Type.Object({
  emails: Type.Array(
    Type.Union([
      Type.String({ minLength: 1, maxLength: 320 }),
      Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }), role: RoleOrGuest }),
    ]),
    { minItems: 1, maxItems: 1000, description: 'Addresses to invite, each with its own role or the default one' },
  ),
  // Addresses without their own role get this one, or the organization's default role.
  role: Type.Optional(RoleOrGuest),
  sso: Type.Optional(Type.Boolean({ description: 'Invite as SSO members (default false)' })),
});

export const InviteUsersResult = Type.Object({
  users: Type.Array(Type.String(), { description: 'Ids of the users added to the organization' }),
  invited: Type.Number({ description: 'How many users were added' }),
});
