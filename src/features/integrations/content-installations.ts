import type { AppContext, Caller } from '../../platform/context.ts';
import { isNotFound, notFound } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import type { Executor } from '../../db/types.ts';
import { OrgAccess } from '../access/service.ts';
import { presentSpacesFor } from '../spaces/service.ts';
import { findSpaces } from '../spaces/queries.ts';
import { getSite } from '../sites/service.ts';
import { eventPayload, loadInstallation, writeContentInstallation, type ContentInstallInput } from './installations.ts';
import { presentContentInstallation } from './present.ts';
import {
  countSiteInstallations,
  countSpaceInstallations,
  deleteSiteInstallation,
  deleteSpaceInstallation,
  findSiteInstallation,
  findSpaceInstallation,
  listSiteInstallations,
  listSpaceInstallations,
  upsertSiteInstallation,
  upsertSpaceInstallation,
  type InstallationRow,
  type IntegrationRow,
  type SiteInstallationRow,
  type SpaceInstallationRow,
} from './store.ts';

/*
 * One installation's space and site installations, each on its own (the official
 * listIntegrationInstallationSpaces, get/update/uninstallIntegration…Space and their site twins). They are the
 * same operations on two tables; `KINDS` names what differs. Whoever sees the installation sees them; whoever may
 * change the installation (an admin of its organization, or the installation itself) changes or removes them.
 * Removing one narrows the installation's reach, so the installation may do it to itself.
 */

type Kind = 'space' | 'site';
type ContentRow = SpaceInstallationRow | SiteInstallationRow;
type PageQuery = { page?: string | undefined; limit?: number | undefined; extended?: boolean | undefined };

const KINDS = {
  space: {
    find: findSpaceInstallation,
    list: listSpaceInstallations,
    count: countSpaceInstallations,
    upsert: upsertSpaceInstallation as (db: Executor, row: ContentRow) => Promise<void>,
    remove: deleteSpaceInstallation,
    targetOf: (row: ContentRow) => (row as SpaceInstallationRow).space_id,
    make: (base: Omit<SpaceInstallationRow, 'space_id'>, id: string): ContentRow => ({ ...base, space_id: id }),
  },
  site: {
    find: findSiteInstallation,
    list: listSiteInstallations,
    count: countSiteInstallations,
    upsert: upsertSiteInstallation as (db: Executor, row: ContentRow) => Promise<void>,
    remove: deleteSiteInstallation,
    targetOf: (row: ContentRow) => (row as SiteInstallationRow).site_id,
    make: (base: Omit<SpaceInstallationRow, 'space_id'>, id: string): ContentRow => ({ ...base, site_id: id }),
  },
} as const;

/**
 * The `spaceInstallation` or `siteInstallation` of a script's environment (the official IntegrationEnvironment)
 * for an event or a render about one space or site the installation is on: the integration reads the
 * configuration made there (`context.environment.spaceInstallation.configuration`), as on GitBook. Nothing when
 * it is not on that space or site.
 */
export async function contentInstallationEnvironment(
  ctx: AppContext,
  integration: Pick<IntegrationRow, 'name'>,
  installationId: string,
  about: { spaceId?: unknown; siteId?: unknown },
): Promise<Record<string, unknown>> {
  if (typeof about.spaceId === 'string') {
    const row = await findSpaceInstallation(ctx.db, installationId, about.spaceId);
    return row ? { spaceInstallation: { ...presentContentInstallation(ctx.config, integration, row, `spaces/${row.space_id}`), space: row.space_id } } : {};
  }
  if (typeof about.siteId === 'string') {
    const row = await findSiteInstallation(ctx.db, installationId, about.siteId);
    return row ? { siteInstallation: { ...presentContentInstallation(ctx.config, integration, row, `sites/${row.site_id}`), site: row.site_id } } : {};
  }
  return {};
}

/**
 * The Space or Site objects of `ids` (`extended`), as the caller sees them; one the caller cannot see stays its id
 * (the owner organization's admins read installations in organizations they are not members of).
 */
async function targetObjects(ctx: AppContext, caller: Caller, installation: InstallationRow, kind: Kind, ids: readonly string[]): Promise<Map<string, unknown>> {
  const objects = new Map<string, unknown>();
  if (ids.length === 0) return objects;
  if (kind === 'space') {
    const access = await OrgAccess.load(ctx.db, installation.organization_id, caller);
    const rows = [];
    for (const space of await findSpaces(ctx.db, ids)) {
      if (space.organization_id === installation.organization_id && !space.deleted_at && (await access.roleOn(space))) rows.push(space);
    }
    for (const [id, presented] of await presentSpacesFor(ctx, access, rows)) objects.set(id, presented);
    return objects;
  }
  for (const id of ids) {
    try {
      objects.set(id, await getSite(ctx, caller, installation.organization_id, id));
    } catch (error) {
      if (!isNotFound(error) && !(error instanceof Error && 'statusCode' in error && error.statusCode === 403)) throw error;
    }
  }
  return objects;
}

/**
 * A space installation has `space`, a site installation `site`: the object when extended, its id otherwise. Typed
 * as having both so that one function serves both routes; each route's schema serializes only its own field.
 */
type PresentedContentInstallation = ReturnType<typeof presentContentInstallation> & { space: string; site: string };

function present(ctx: AppContext, integration: IntegrationRow, kind: Kind, row: ContentRow, objects: Map<string, unknown>): PresentedContentInstallation {
  const id = KINDS[kind].targetOf(row);
  return { ...presentContentInstallation(ctx.config, integration, row, `${kind}s/${id}`), [kind]: objects.get(id) ?? id } as PresentedContentInstallation;
}

export async function listContentInstallations(ctx: AppContext, caller: Caller, kind: Kind, name: string, installationId: string, query: PageQuery) {
  const { integration, installation } = await loadInstallation(ctx, caller, name, installationId);
  const listKey = `installation-${kind}s:${installation.id}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const reach = { installation: installation.id };
  const [rows, count] = await Promise.all([
    KINDS[kind].list(ctx.db, integration.id, reach, undefined, page) as Promise<ContentRow[]>,
    KINDS[kind].count(ctx.db, integration.id, reach, undefined),
  ]);
  const shown = rows.slice(0, page.limit);
  const objects = query.extended ? await targetObjects(ctx, caller, installation, kind, shown.map(KINDS[kind].targetOf)) : new Map<string, unknown>();
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (row) => [row.created_at, row.installation_id, KINDS[kind].targetOf(row)],
    (row) => present(ctx, integration, kind, row, objects),
  );
}

async function loadContentInstallation(ctx: AppContext, caller: Caller, kind: Kind, name: string, installationId: string, targetId: string, change?: string) {
  const loaded = await loadInstallation(ctx, caller, name, installationId, change);
  const row = await KINDS[kind].find(ctx.db, loaded.installation.id, targetId);
  if (!row) throw notFound(`The installation ${installationId} of ${name} is not installed on ${kind} ${targetId}`);
  return { ...loaded, row };
}

export async function getContentInstallation(ctx: AppContext, caller: Caller, kind: Kind, name: string, installationId: string, targetId: string, extended: boolean) {
  const { integration, installation, row } = await loadContentInstallation(ctx, caller, kind, name, installationId, targetId);
  const objects = extended ? await targetObjects(ctx, caller, installation, kind, [targetId]) : new Map<string, unknown>();
  return present(ctx, integration, kind, row, objects);
}

/** Changes the configuration or external ids of an existing space or site installation (404 when there is none). */
export async function updateContentInstallation(
  ctx: AppContext,
  caller: Caller,
  kind: Kind,
  name: string,
  installationId: string,
  targetId: string,
  body: ContentInstallInput,
  extended: boolean,
) {
  const what = kind === 'space' ? 'Changing a space installation' : 'Changing a site installation';
  const { integration, installation, row: existing } = await loadContentInstallation(ctx, caller, kind, name, installationId, targetId, what);
  const row = await writeContentInstallation(ctx, integration, installation, kind, existing, (base) => KINDS[kind].make(base, targetId), KINDS[kind].upsert, targetId, body);
  const objects = extended ? await targetObjects(ctx, caller, installation, kind, [targetId]) : new Map<string, unknown>();
  return present(ctx, integration, kind, row, objects);
}

/**
 * Ends the installation on one space or site, with its `…_installation_deleted` event. Answers whether there was
 * one: the official 205 when it was removed, 204 when there was nothing to remove (nor anything the caller sees).
 */
export async function uninstallFromContent(ctx: AppContext, caller: Caller, kind: Kind, name: string, installationId: string, targetId: string): Promise<boolean> {
  let loaded;
  try {
    const what = kind === 'space' ? 'Uninstalling an integration from a space' : 'Uninstalling an integration from a site';
    loaded = await loadContentInstallation(ctx, caller, kind, name, installationId, targetId, what);
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
  const { integration, installation, row } = loaded;
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await KINDS[kind].remove(trx, installation.id, targetId))) return false;
    await recordEvent(trx, ctx.clock, `${kind}_installation_deleted`, installation.organization_id, eventPayload(integration, installation, row.status, { [`${kind}Id`]: targetId }));
    return true;
  });
}
