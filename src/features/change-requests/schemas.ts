import { Type } from 'typebox';
import { ListQuery, SpaceIdParams, Timestamp } from '../../platform/schemas.ts';
import { User } from '../users/schemas.ts';

export const ChangeRequestStatus = Type.Union([Type.Literal('draft'), Type.Literal('open'), Type.Literal('archived'), Type.Literal('merged')]);

export const ChangeRequest = Type.Object(
  {
    object: Type.Literal('change-request'),
    id: Type.String(),
    number: Type.Number(),
    status: ChangeRequestStatus,
    subject: Type.String(),
    createdBy: User,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    space: Type.String(),
    revision: Type.String(),
    revisionInitial: Type.String(),
    revisionMergedAncestor: Type.Optional(Type.String()),
    revisionMerged: Type.Optional(Type.String()),
    mergedAt: Type.Optional(Timestamp),
    // The User shape without its $id: one response cannot name the same schema twice.
    mergedBy: Type.Optional(Type.Object(User.properties)),
    comments: Type.Number(),
    outdated: Type.Boolean(),
    urls: Type.Object({ app: Type.String({ format: 'uri' }), location: Type.String({ format: 'uri' }) }),
  },
  { $id: 'ChangeRequest' },
);

export const ChangeRequestParams = Type.Object({
  spaceId: Type.String({ minLength: 1 }),
  changeRequestId: Type.String({ minLength: 1, description: 'The change request id or its number' }),
});
export { SpaceIdParams };

export const ListChangeRequestsQuery = Type.Object({
  ...ListQuery.properties,
  status: Type.Optional(ChangeRequestStatus),
  creator: Type.Optional(Type.String({ minLength: 1 })),
  contributor: Type.Optional(Type.String({ minLength: 1 })),
});

export const CreateChangeRequestBody = Type.Object({
  subject: Type.Optional(Type.String({ maxLength: 100 })),
  agentTaskId: Type.Optional(Type.String({ maxLength: 100 })),
});

export const UpdateChangeRequestBody = Type.Object({
  subject: Type.Optional(Type.String({ maxLength: 100 })),
  status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('open'), Type.Literal('archived')])),
});
