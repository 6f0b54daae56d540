import { Type, type Static } from 'typebox';
import { ListQuery, Timestamp } from '../../platform/schemas.ts';
import { RoleOrGuest } from '../access/schemas.ts';
import { User as NamedUser } from '../users/schemas.ts';

// A comment names users in several places (author, resolver, reactions); a serializer cannot hold one `$id`
// several times, so these schemas use the User shape without its name.
const User = Type.Object(NamedUser.properties);

/**
 * A comment's body on input: `{ markdown }` or `{ document }` (the JSON document). One object with both
 * optional, so that a wrong body is answered with what to send rather than with a failed `anyOf`; the service
 * checks that exactly one is given and that a document is a document.
 */
export const CommentBodyInput = Type.Object(
  {
    markdown: Type.Optional(Type.String({ maxLength: 100_000 })),
    document: Type.Optional(Type.Object({ object: Type.Literal('document'), nodes: Type.Array(Type.Unknown()) }, { additionalProperties: true })),
  },
  { description: 'The content: { markdown } or { document } (the JSON document)' },
);
export type CommentBodyValue = Static<typeof CommentBodyInput>;

/** On output: the JSON document (format=document, the default) or its markdown (format=markdown). */
const CommentBodyOutput = Type.Object({
  markdown: Type.Optional(Type.String()),
  document: Type.Optional(Type.Unknown()),
});

export const DocumentFormat = Type.Union([Type.Literal('document'), Type.Literal('markdown')], { description: 'Output format of bodies (default document)' });
export const FormatQuery = Type.Object({ format: Type.Optional(DocumentFormat) });

const Reaction = Type.Object({
  emoji: Type.String(),
  count: Type.Number(),
  users: Type.Array(Type.Object({ user: User, reactedAt: Timestamp })),
});

const Permissions = Type.Object({ view: Type.Boolean(), edit: Type.Boolean(), reply: Type.Boolean(), delete: Type.Boolean() });

const TableCell = Type.Object({ record: Type.String({ minLength: 1, maxLength: 200 }), definition: Type.String({ minLength: 1, maxLength: 200 }) });

export const Comment = Type.Object({
  object: Type.Literal('comment'),
  id: Type.String(),
  postedBy: User,
  postedAt: Timestamp,
  editedAt: Type.Optional(Timestamp),
  reactions: Type.Array(Reaction),
  replies: Type.Number(),
  repliers: Type.Array(Type.Object({ user: User, count: Type.Integer(), updatedAt: Timestamp }), { description: 'Who replied, with how many replies and when they last replied' }),
  body: CommentBodyOutput,
  target: Type.Object({
    node: Type.Optional(Type.Object({ id: Type.String(), preview: Type.Optional(Type.String()) })),
    tableCell: Type.Optional(TableCell),
    changeRequest: Type.Optional(Type.String()),
    page: Type.Optional(
      Type.Object({
        id: Type.String(),
        title: Type.String(),
        emoji: Type.Optional(Type.String()),
        icon: Type.Optional(Type.String()),
        createdAt: Type.Optional(Timestamp),
        updatedAt: Type.Optional(Timestamp),
        path: Type.String(),
        outdated: Type.Boolean(),
      }),
    ),
    space: Type.String(),
    revision: Type.String(),
  }),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  permissions: Permissions,
  status: Type.Union([Type.Literal('open'), Type.Literal('resolved')]),
  resolvedAt: Type.Optional(Timestamp),
  resolvedBy: Type.Optional(User),
});

export const CommentReply = Type.Object({
  object: Type.Literal('comment-reply'),
  id: Type.String(),
  postedBy: User,
  postedAt: Timestamp,
  editedAt: Type.Optional(Timestamp),
  reactions: Type.Array(Reaction),
  body: CommentBodyOutput,
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  permissions: Permissions,
});

/** A commenter, as the organization member they are (the spec's OrganizationMember). */
export const Commenter = Type.Object({
  object: Type.Literal('member'),
  id: Type.String(),
  role: RoleOrGuest,
  user: User,
  disabled: Type.Boolean(),
  joinedAt: Timestamp,
  lastSeenAt: Type.Optional(Timestamp),
  sso: Type.Boolean(),
  spaces: Type.Number(),
  teams: Type.Number(),
});

export const ListCommentsQuery = Type.Object({
  ...ListQuery.properties,
  ...FormatQuery.properties,
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'By posting time (default desc)' })),
  status: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('open'), Type.Literal('resolved')], { description: 'Default all' })),
  targetPage: Type.Optional(Type.String({ minLength: 1, description: 'Only comments on this page' })),
  authors: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 100, description: 'Only comments by these users (ids)' })),
});
export type ListCommentsQueryValue = Static<typeof ListCommentsQuery>;

export const ListRepliesQuery = Type.Object({ ...ListQuery.properties, ...FormatQuery.properties });

export const PostCommentBody = Type.Object({
  page: Type.Optional(Type.String({ minLength: 1, description: 'The page the comment is about' })),
  node: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A node (block key) of that page' })),
  tableCell: Type.Optional(TableCell),
  body: CommentBodyInput,
});
export type PostCommentValue = Static<typeof PostCommentBody>;

export const PostReplyBody = Type.Object({ body: CommentBodyInput });

const Reactions = (what: string) =>
  Type.Optional(Type.Array(Type.String({ format: 'emoji', minLength: 1, maxLength: 50 }), { maxItems: 50, uniqueItems: true, description: what }));

export const UpdateCommentBody = Type.Object({
  resolved: Type.Optional(Type.Boolean({ description: 'true resolves the thread, false reopens it' })),
  body: Type.Optional(CommentBodyInput),
  addedReactions: Reactions("Emojis to add the caller's reaction with"),
  removedReactions: Reactions("Emojis to remove the caller's reaction from"),
});
export type UpdateCommentValue = Static<typeof UpdateCommentBody>;

/** On change requests a reply may resolve or reopen its thread too. */
export const UpdateReplyBody = Type.Object({
  body: Type.Optional(CommentBodyInput),
  addedReactions: Reactions("Emojis to add the caller's reaction with"),
  removedReactions: Reactions("Emojis to remove the caller's reaction from"),
});
export const UpdateChangeRequestReplyBody = Type.Object({ ...UpdateReplyBody.properties, resolved: UpdateCommentBody.properties.resolved });
export type UpdateReplyValue = Static<typeof UpdateChangeRequestReplyBody>;
