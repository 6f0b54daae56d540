import { Type } from 'typebox';
import { Role, RoleOrGuest } from '../access/schemas.ts';
import { User } from '../users/schemas.ts';
import { Team } from '../teams/schemas.ts';

export const InviteToContentBody = Type.Object({
  // null takes away what was given.
  role: RoleOrGuest,
  users: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 1000, description: 'Ids of members (guests included)' })),
  teams: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 1000, description: 'Ids of teams of the organization' })),
});

export const UpdateGrantBody = Type.Object({ role: RoleOrGuest });

export const UserPermission = Type.Object({ permission: Role, user: User });
export const TeamPermission = Type.Object({ permission: Role, team: Team });

const Id = Type.String({ minLength: 1 });
export const SpaceUserParams = Type.Object({ spaceId: Id, userId: Id });
export const SpaceTeamParams = Type.Object({ spaceId: Id, teamId: Id });
export const CollectionUserParams = Type.Object({ collectionId: Id, userId: Id });
export const CollectionTeamParams = Type.Object({ collectionId: Id, teamId: Id });

export const AggregateQuery = Type.Object({
  page: Type.Optional(Type.String({ description: 'Opaque cursor: next.page of the previous response' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size (default 50)' })),
  role: Type.Optional(Role),
});
