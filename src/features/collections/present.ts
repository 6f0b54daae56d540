import type { Config } from '../../config.ts';
import { apiUrl, appUrl } from '../../platform/urls.ts';
import type { Role } from '../access/roles.ts';
import { collectionPermissions } from './policy.ts';
import type { CollectionRow } from './store.ts';

export function presentCollection(config: Config, row: CollectionRow, role: Role | null) {
  return {
    object: 'collection' as const,
    id: row.id,
    title: row.title,
    ...(row.description !== null ? { description: row.description } : {}),
    organization: row.organization_id,
    ...(row.parent_id ? { parent: row.parent_id } : {}),
    defaultLevel: row.default_level,
    urls: { location: apiUrl(config, `/collections/${row.id}`), app: appUrl(config, `/o/${row.organization_id}/c/${row.id}`) },
    permissions: collectionPermissions(role),
  };
}
