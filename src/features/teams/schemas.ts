import { Type } from 'typebox';
import { ListQuery, Timestamp } from '../../platform/schemas.ts';

export const TeamTitle = Type.String({ minLength: 1, maxLength: 64, description: 'Title of the team' });
export const TeamMemberRole = Type.Union([Type.Literal('owner'), Type.Literal('member')], {
  description: '`owner` can manage the members of the team; `member` is in it',
});

export const Team = Type.Object(
  {
    object: Type.Literal('team'),
    id: Type.String(),
    title: Type.String(),
    members: Type.Integer({ description: 'Count of members in this team' }),
    spaces: Type.Number({ description: 'Count of spaces this team has access to' }),
    createdAt: Timestamp,
    permissions: Type.Object({
      admin: Type.Boolean({ description: 'The caller can manage the team' }),
      view: Type.Boolean({ description: 'The caller can see the team and list its members' }),
    }),
  },
  { $id: 'Team' },
);

export const TeamMember = Type.Object({ role: TeamMemberRole });

export const TeamIdParams = Type.Object({ organizationId: Type.String({ minLength: 1 }), teamId: Type.String({ minLength: 1 }) });
export const TeamMemberParams = Type.Object({
  organizationId: Type.String({ minLength: 1 }),
  teamId: Type.String({ minLength: 1 }),
  userId: Type.String({ minLength: 1 }),
});

export const ListTeamsQuery = Type.Object({
  ...ListQuery.properties,
  owner: Type.Optional(Type.String({ description: 'A member id: only the teams this member can manage' })),
  title: Type.Optional(Type.String({ maxLength: 256, description: 'Only teams whose title contains this text, case-insensitively' })),
});

const UserRef = Type.String({ minLength: 1, maxLength: 320, description: 'A user id or an e-mail address' });

export const CreateTeamBody = Type.Object({
  title: TeamTitle,
  members: Type.Optional(Type.Array(UserRef, { maxItems: 1000, description: 'Members of the organization to put in the team' })),
});

export const UpdateTeamBody = Type.Object({ title: TeamTitle });

export const UpdateTeamMembersBody = Type.Object({
  add: Type.Optional(Type.Array(UserRef, { maxItems: 1000 })),
  remove: Type.Optional(Type.Array(UserRef, { maxItems: 1000, description: 'A user both added and removed is removed' })),
  memberships: Type.Optional(Type.Record(Type.String(), TeamMember, { description: 'Role by user id or e-mail' })),
});

export const PutTeamMemberBody = Type.Object({ role: Type.Optional(TeamMemberRole) });
