import { Type } from 'typebox';
import { ListQuery, SpaceIdParams, Timestamp } from '../../platform/schemas.ts';
import { User } from '../users/schemas.ts';
import { Comment, CommentBodyInput } from '../comments/schemas.ts';

export const ChangeRequestStatus = Type.Union([Type.Literal('draft'), Type.Literal('open'), Type.Literal('archived'), Type.Literal('merged')]);

/** A JSON document (the official JSONDocument): its blocks are checked by the service, which names the bad one. */
const JSONDocumentInput = Type.Object(
  { object: Type.Literal('document'), data: Type.Optional(Type.Record(Type.String(), Type.Unknown())), nodes: Type.Array(Type.Unknown()) },
  { additionalProperties: true, description: 'A JSON document; one without blocks clears the description' },
);

export const ChangeRequest = Type.Object(
  {
    object: Type.Literal('change-request'),
    id: Type.String(),
    number: Type.Number(),
    status: ChangeRequestStatus,
    subject: Type.String(),
    description: Type.Optional(Type.Unknown({ description: 'The JSON document describing the change request' })),
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
  description: Type.Optional(JSONDocumentInput),
  status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('open'), Type.Literal('archived')])),
});

// Reviews (issue 29). A review names two users: one response cannot name the same `$id` twice, so both are the
// User shape without it.
const Person = Type.Object(User.properties);

export const ChangeRequestReviewStatus = Type.Union([Type.Literal('changes-requested'), Type.Literal('approved')]);

export const ChangeRequestReview = Type.Object({
  object: Type.Literal('change-request-review'),
  id: Type.String(),
  revision: Type.String({ description: 'The revision of the change request that was reviewed' }),
  reviewer: Person,
  requestedBy: Type.Optional(Person),
  status: ChangeRequestReviewStatus,
  outdated: Type.Boolean({ description: 'Superseded by a newer review of the same reviewer or a new request to them' }),
  comment: Type.Optional(Comment),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: Type.Object({ location: Type.String({ format: 'uri', description: 'The review in the API' }) }),
});

export const ReviewParams = Type.Object({ ...ChangeRequestParams.properties, reviewId: Type.String({ minLength: 1 }) });

export const ListReviewsQuery = Type.Object({
  ...ListQuery.properties,
  format: Type.Optional(Type.Union([Type.Literal('document'), Type.Literal('markdown')], { description: 'The format of review comments' })),
  outdated: Type.Optional(Type.Boolean({ description: 'Only outdated reviews (true) or only current ones (false)' })),
});

export const SubmitReviewBody = Type.Object({
  status: ChangeRequestReviewStatus,
  comment: Type.Optional(CommentBodyInput),
});

export const ChangeRequestRequestedReviewer = Type.Object({
  object: Type.Literal('change-request-requested-reviewer'),
  revision: Type.String({ description: 'The revision of the change request when the review was asked for' }),
  requestedBy: Person,
  createdAt: Timestamp,
  kind: Type.Literal('user'),
  user: Person,
});

export const RequestReviewersBody = Type.Object({
  users: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 50, description: 'The ids of the people asked to review' }),
  subject: Type.Optional(Type.String({ maxLength: 100 })),
  description: Type.Optional(JSONDocumentInput),
});

export const RequestedReviewerParams = Type.Object({ ...ChangeRequestParams.properties, userId: Type.String({ minLength: 1 }) });

export const UserContributor = Type.Object({
  updatedAt: Timestamp,
  count: Type.Integer(),
  user: Person,
  actionType: Type.Union([Type.Literal('edit'), Type.Literal('comment')]),
});
