import type { Config } from '../../config.ts';
import { apiUrl, appUrl } from '../../platform/urls.ts';
import { presentUser } from '../users/present.ts';
import type { ChangeRequestView } from './store.ts';
import { presentedDescription } from './description.ts';
import type { RequestedReviewerView, ReviewView } from './review-store.ts';

/** The revision of the space the change request is based on: where it started, or where it was last updated from. */
export function baseRevisionOf(cr: Pick<ChangeRequestView, 'revision_merged_ancestor' | 'revision_initial'>): string {
  return cr.revision_merged_ancestor ?? cr.revision_initial;
}

export function presentChangeRequest(config: Config, cr: ChangeRequestView, spaceRevision: string, openComments: number) {
  return {
    object: 'change-request' as const,
    id: cr.id,
    number: cr.number,
    status: cr.status as 'draft' | 'open' | 'archived' | 'merged',
    subject: cr.subject,
    ...(cr.description !== null ? { description: presentedDescription(cr.description) } : {}),
    createdBy: presentUser(config, {
      id: cr.created_by ?? 'deleted-user',
      display_name: cr.creator_name ?? 'Deleted user',
      email: cr.creator_email ?? null,
      photo_url: cr.creator_photo ?? null,
    }),
    createdAt: cr.created_at,
    updatedAt: cr.updated_at,
    space: cr.space_id,
    revision: cr.head_revision_id ?? cr.revision_initial,
    revisionInitial: cr.revision_initial,
    ...(cr.revision_merged_ancestor ? { revisionMergedAncestor: cr.revision_merged_ancestor } : {}),
    ...(cr.revision_merged ? { revisionMerged: cr.revision_merged } : {}),
    ...(cr.merged_at ? { mergedAt: cr.merged_at } : {}),
    ...(cr.merged_by
      ? { mergedBy: presentUser(config, { id: cr.merged_by, display_name: cr.merger_name ?? 'Deleted user', email: cr.merger_email ?? null, photo_url: cr.merger_photo ?? null }) }
      : {}),
    comments: openComments,
    outdated: cr.status !== 'merged' && baseRevisionOf(cr) !== spaceRevision,
    urls: {
      app: appUrl(config, `/s/${cr.space_id}/~/changes/${cr.number}`),
      location: apiUrl(config, `/spaces/${cr.space_id}/change-requests/${cr.id}`),
    },
  };
}

/** A user joined to a row (null fields: the user was deleted). */
const joinedUser = (config: Config, id: string, name: string | null, email: string | null, photo: string | null) =>
  presentUser(config, { id, display_name: name ?? 'Deleted user', email, photo_url: photo });

/** A review, with the comment posted with it (presented by comments/, for the caller). */
export function presentReview<C>(config: Config, spaceId: string, review: ReviewView, comment?: C) {
  return {
    object: 'change-request-review' as const,
    id: review.id,
    revision: review.revision_id,
    reviewer: joinedUser(config, review.reviewer_id, review.reviewer_name, review.reviewer_email, review.reviewer_photo),
    ...(review.requested_by ? { requestedBy: joinedUser(config, review.requested_by, review.requester_name, review.requester_email, review.requester_photo) } : {}),
    status: review.status as 'approved' | 'changes-requested',
    outdated: Number(review.outdated) === 1,
    ...(comment ? { comment } : {}),
    createdAt: review.created_at,
    updatedAt: review.updated_at,
    urls: { location: apiUrl(config, `/spaces/${spaceId}/change-requests/${review.change_request_id}/reviews/${review.id}`) },
  };
}

export function presentRequestedReviewer(config: Config, request: RequestedReviewerView) {
  return {
    object: 'change-request-requested-reviewer' as const,
    revision: request.revision_id,
    requestedBy: joinedUser(config, request.requested_by, request.requester_name, request.requester_email, request.requester_photo),
    createdAt: request.created_at,
    kind: 'user' as const,
    user: joinedUser(config, request.user_id, request.reviewer_name, request.reviewer_email, request.reviewer_photo),
  };
}
