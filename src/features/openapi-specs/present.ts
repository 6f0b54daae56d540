import type { Config } from '../../config.ts';
import { apiUrl, appUrl } from '../../platform/urls.ts';
import type { SpecProblem } from './document.ts';
import type { SpecRow, SpecVersionHead } from './store.ts';

const seg = encodeURIComponent;

/**
 * Where a spec's documents are downloaded, outside /v1 (routes.ts `publishedSpecRoutes`): the latest document,
 * and each version's. Only public specs answer there.
 */
export function publishedSpecUrl(config: Config, organizationId: string, slug: string): string {
  return `${config.publicUrl}/openapi/${seg(organizationId)}/${seg(slug)}`;
}

export function publishedVersionUrl(config: Config, organizationId: string, slug: string, versionId: string): string {
  return `${publishedSpecUrl(config, organizationId, slug)}/versions/${seg(versionId)}`;
}

export function presentSpec(config: Config, row: SpecRow, permissions: { view: boolean; edit: boolean }) {
  const problems = row.last_errors ? (JSON.parse(row.last_errors) as SpecProblem[]) : [];
  const base = `/orgs/${seg(row.organization_id)}/openapi/${seg(row.slug)}`;
  return {
    object: 'openapi-spec' as const,
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    slug: row.slug,
    ...(row.source_url ? { sourceURL: row.source_url } : {}),
    processingState: row.processing_state,
    visibility: row.visibility,
    ...(row.last_version_id ? { lastVersion: row.last_version_id } : {}),
    ...(row.last_processed_at ? { lastProcessedAt: row.last_processed_at } : {}),
    ...(row.last_error_code ? { lastProcessErrorCode: row.last_error_code } : {}),
    ...(problems.length > 0 ? { lastProcessedErrors: problems } : {}),
    lastProcessedErrorCount: problems.length,
    permissions,
    urls: {
      location: apiUrl(config, base),
      app: appUrl(config, base.replace(/^\/orgs\//, '/o/')),
      ...(row.visibility === 'public' ? { published: publishedSpecUrl(config, row.organization_id, row.slug) } : {}),
    },
  };
}

export function presentVersion(config: Config, spec: SpecRow, version: SpecVersionHead) {
  return {
    object: 'openapi-spec-version' as const,
    id: version.id,
    createdAt: version.created_at,
    url: publishedVersionUrl(config, spec.organization_id, spec.slug, version.id),
    urls: { location: apiUrl(config, `/orgs/${seg(spec.organization_id)}/openapi/${seg(spec.slug)}/versions/${seg(version.id)}`) },
  };
}
