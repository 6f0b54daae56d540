import type { Config } from '../../config.ts';
import { apiUrl, appUrl } from '../../platform/urls.ts';
import type { Role } from '../access/roles.ts';
import { spacePermissions } from './policy.ts';
import type { SpaceRow } from './store.ts';

/** Counters of a space that other features own (comments, change requests). */
export interface SpaceCounters {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

/** A space with no comments and no change requests. */
export const NO_ACTIVITY: SpaceCounters = { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 };

export function presentSpace(config: Config, row: SpaceRow, role: Role | null, counters: SpaceCounters) {
  return {
    object: 'space' as const,
    id: row.id,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.deleted_at ? { deletedAt: row.deleted_at } : {}),
    editMode: row.edit_mode,
    mergeRules: JSON.parse(row.merge_rules),
    urls: {
      location: apiUrl(config, `/spaces/${row.id}`),
      app: appUrl(config, `/o/${row.organization_id}/s/${row.id}`),
      ...(row.icon_url ? { icon: row.icon_url } : {}),
    },
    organization: row.organization_id,
    ...(row.parent_id ? { parent: row.parent_id } : {}),
    ...(row.language ? { language: row.language } : {}),
    revision: row.revision_id,
    defaultLevel: row.default_level,
    ...counters,
    permissions: spacePermissions(role, row.edit_mode),
  };
}
