import type { Executor } from '../../db/types.ts';
import type { Caller, InstallationCaller, SiteReaderCaller } from '../../platform/context.ts';
import { effectiveRole, grantsOnPath, type ContentNode, type Membership } from './levels.ts';
import { isRole, parseDefaultLevel, type Role } from './roles.ts';
import { cachedRead, readCache } from '../../platform/read-cache.ts';
import { findInstallationReach, findMemberRole, listCollectionLevels, listGrantsReachingUser } from './store.ts';
import { sessionReachesOrganization } from '../sessions/service.ts';

/**
 * Memberships, grants and collection trees are read by nearly every request and changed by few: they are
 * cached per database handle for a few seconds (platform/read-cache.ts), emptied by any write to the tables
 * they come from (organizations and users for the cascades of their deletion).
 */
// An installation's reach (its spaces and sites, their selection) is access too: lists kept per caller follow it.
export const ACCESS_TABLES = ['members', 'teams', 'team_members', 'content_grants', 'collections', 'organizations', 'users', 'integration_installations', 'integration_space_installations', 'integration_site_installations'];
const cacheOptions = { max: 10_000, ttlMs: 'shared' as const, dependsOn: ACCESS_TABLES };
const COLLECTION_LEVELS = { ...cacheOptions, max: 1_000 };
const INSTALLATION_REACH = { ...cacheOptions, keep: (reach: InstallationReachRow) => reach !== undefined };

type MemberRoleRow = Awaited<ReturnType<typeof findMemberRole>>;
type CollectionLevelRows = Awaited<ReturnType<typeof listCollectionLevels>>;
type GrantRows = Awaited<ReturnType<typeof listGrantsReachingUser>>;
type InstallationReachRow = Awaited<ReturnType<typeof findInstallationReach>>;

function memberRoleOf(db: Executor, organizationId: string, userId: string): Promise<MemberRoleRow> {
  const cache = readCache<MemberRoleRow>(db, 'access:member', cacheOptions);
  return cachedRead(cache, `${organizationId} ${userId}`, () => findMemberRole(db, organizationId, userId));
}

function collectionLevelsOf(db: Executor, organizationId: string): Promise<CollectionLevelRows> {
  const cache = readCache<CollectionLevelRows>(db, 'access:collections', COLLECTION_LEVELS);
  return cachedRead(cache, organizationId, () => listCollectionLevels(db, organizationId));
}

function grantsReaching(db: Executor, organizationId: string, userId: string): Promise<GrantRows> {
  const cache = readCache<GrantRows>(db, 'access:grants', cacheOptions);
  return cachedRead(cache, `${organizationId} ${userId}`, () => listGrantsReachingUser(db, organizationId, userId));
}

/**
 * An installation's spaces and sites (3 small queries): read by every request of its token, cached like a
 * user's membership and emptied with it, by any write to an installation, its spaces or its sites (a
 * changed selection, an uninstall). An installation that is gone is not kept.
 */
function installationReachOf(db: Executor, installationId: string): Promise<InstallationReachRow> {
  const cache = readCache<InstallationReachRow>(db, 'access:installation-reach', INSTALLATION_REACH);
  return cachedRead(cache, installationId, () => findInstallationReach(db, installationId));
}

/** The grants reaching one user in one organization: roles by target id, and which targets are collections. */
interface GrantIndex {
  rolesOn: Map<string, Role[]>;
  spaces: string[];
  collections: string[];
}

const NO_GRANTS: GrantIndex = { rolesOn: new Map(), spaces: [], collections: [] };

/** A space or collection row, as far as access is concerned. */
export interface AccessNode {
  id: string;
  default_level: string | null;
  parent_id: string | null;
}

/**
 * What one user may do inside one organization: their membership and, loaded on first need (once per
 * request), the collection tree that default levels inherit through and the grants that reach them
 * (their own and their teams'). Built once per request and organization.
 */
export class OrgAccess {
  private collections: Promise<Map<string, ContentNode>> | undefined;
  private grantIndex: Promise<GrantIndex> | undefined;

  /**
   * `userId` is whose grants count; without it (an access built for a known role, e.g. right after creating
   * an organization) no grant is loaded. `ownsTeam`: the user owns at least one team of the organization.
   */
  constructor(
    private readonly db: Executor,
    readonly organizationId: string,
    readonly membership: Membership,
    readonly userId: string | null = null,
    readonly ownsTeam: boolean = false,
  ) {}

  static async load(db: Executor, organizationId: string, caller: Caller): Promise<OrgAccess> {
    if (caller.kind === 'installation') return InstallationAccess.load(db, organizationId, caller);
    if (caller.kind === 'site-reader') return SiteReaderAccess.of(db, organizationId, caller);
    // An identity provider's word (its session, or a token that session minted) reaches its organization only.
    if (caller.onlyOrganization !== undefined && caller.onlyOrganization !== organizationId) return new OrgAccess(db, organizationId, { member: false }, caller.userId);
    const access = await OrgAccess.loadForUser(db, organizationId, caller.userId);
    // A browser session opened by another organization's identity provider may not reach one that requires SSO.
    if (caller.kind === 'user' && caller.session && access.isMember && !(await sessionReachesOrganization(db, caller.session, organizationId, caller.userId))) {
      return new OrgAccess(db, organizationId, { member: false }, caller.userId);
    }
    return access;
  }

  /** The access of any user (a member whose spaces are listed, not only the caller). */
  static async loadForUser(db: Executor, organizationId: string, userId: string): Promise<OrgAccess> {
    const row = await memberRoleOf(db, organizationId, userId);
    const membership = row ? membershipOf(row) : { member: false as const };
    const ownsTeam = membership.member && (row?.owns_team === true || Number(row?.owns_team) === 1);
    return new OrgAccess(db, organizationId, membership, userId, ownsTeam);
  }

  /**
   * The access of another member of the same organization whose membership is already known (a row of a
   * member list), sharing the collection tree this one has loaded or will load.
   */
  peer(userId: string, membership: Membership, ownsTeam = false, grants?: readonly GrantRow[]): OrgAccess {
    const other = new OrgAccess(this.db, this.organizationId, membership, userId, ownsTeam);
    other.collections = this.tree();
    // Grants already read for a whole list page (listGrantsReachingUsers) need not be read again.
    if (grants) other.grantIndex = Promise.resolve(indexGrants(grants));
    return other;
  }

  get isMember(): boolean {
    return this.membership.member;
  }

  get orgRole(): Role | null {
    return this.membership.member ? this.membership.role : null;
  }

  /**
   * Role on a space or collection (a row with its id, default level and parent collection). Grants on it and
   * on the collections above it count; ids are unique across spaces and collections.
   */
  async roleOn(node: AccessNode): Promise<Role | null> {
    if (!this.membership.member) return null;
    if (this.membership.role === 'admin') return 'admin';
    const grants = await this.grants();
    // A guest holds nothing but grants: without any, the tree need not be read.
    if (this.membership.role === null && grants.rolesOn.size === 0) return null;
    return this.roleIn(await this.tree(), grants, node.id, toNode(node));
  }

  /**
   * What lists may show this user, as filters a store can apply in SQL (so pagination stays keyset).
   * A collection is readable when the user holds a role on it. A space is readable when its default level is
   * a role (non-guest members), when it inherits and its parent is readable (or, at the top level, when the
   * member has an organization role), when it is granted directly, or when it sits in a granted collection
   * (or below one).
   */
  async readableScope(): Promise<ReadableScope> {
    if (!this.membership.member) {
      return { everything: false, readableCollections: [], topLevel: false, explicitLevels: false, grantedSpaces: [], grantedCollections: [] };
    }
    if (this.membership.role === 'admin') return { everything: true };
    const nonGuest = this.membership.role !== null;
    const [tree, grants] = await Promise.all([this.tree(), this.grants()]);
    const readableCollections: string[] = [];
    for (const [id, node] of tree) if (this.roleIn(tree, grants, id, node) !== null) readableCollections.push(id);
    const children = childrenIn(tree);
    const grantedCollections = new Set<string>();
    for (const id of grants.collections) for (const below of subtree(children, id)) grantedCollections.add(below);
    return {
      everything: false,
      readableCollections,
      topLevel: nonGuest,
      explicitLevels: nonGuest,
      grantedSpaces: grants.spaces,
      grantedCollections: [...grantedCollections],
    };
  }

  /** Ids of the collection and every collection below it. */
  async subtreeOf(collectionId: string): Promise<string[]> {
    return subtree(childrenIn(await this.tree()), collectionId);
  }

  protected roleIn(tree: Map<string, ContentNode>, grants: GrantIndex, id: string, node: ContentNode): Role | null {
    const parentOf = (parentId: string) => tree.get(parentId);
    const granted = grants.rolesOn.size === 0 ? [] : grantsOnPath(id, node, parentOf, (target) => grants.rolesOn.get(target) ?? []);
    return effectiveRole(this.membership, node, parentOf, granted);
  }

  protected tree(): Promise<Map<string, ContentNode>> {
    this.collections ??= collectionLevelsOf(this.db, this.organizationId).then((rows) => new Map(rows.map((r) => [r.id, toNode(r)])));
    return this.collections;
  }

  private grants(): Promise<GrantIndex> {
    if (!this.userId || !this.membership.member || this.membership.role === 'admin') return Promise.resolve(NO_GRANTS);
    this.grantIndex ??= grantsReaching(this.db, this.organizationId, this.userId).then(indexGrants);
    return this.grantIndex;
  }
}

/**
 * What an integration installation may reach, through one of its tokens (issue 17): nothing outside its
 * organization (404, as for an outsider); inside it, the spaces it is installed on (every space and collection
 * when its space selection is `all`) with the role its scopes give, and nothing else. It holds no
 * organization role: what needs one (members, teams, settings) is out of its reach. Which operations it may
 * call at all is the scope table's decision (features/integrations/scopes.ts), checked before the service runs.
 */
export class InstallationAccess extends OrgAccess {
  readonly kind = 'installation';

  private constructor(
    db: Executor,
    organizationId: string,
    membership: Membership,
    readonly installation: InstallationCaller,
    private readonly reach: InstallationReach,
  ) {
    super(db, organizationId, membership, null, false);
  }

  static override async load(db: Executor, organizationId: string, caller: Caller): Promise<InstallationAccess> {
    if (caller.kind !== 'installation') throw new Error('InstallationAccess.load needs an installation caller');
    // The installation is checked again here (not only at authentication): an uninstall in this process empties
    // the cache and cuts the token off at once; in another process, within CACHE_TTL_MS (as for a removed member).
    const reach = caller.organizationId === organizationId ? await installationReachOf(db, caller.installationId) : undefined;
    const membership: Membership = reach ? { member: true, role: null } : { member: false };
    return new InstallationAccess(db, organizationId, membership, caller, reach ?? { allSpaces: false, allSites: false, spaces: [], sites: [] });
  }

  override async roleOn(node: AccessNode): Promise<Role | null> {
    if (!this.membership.member) return null;
    if (!this.reach.allSpaces && !this.reach.spaces.includes(node.id)) return null;
    return roleOfScopes(this.installation.scopes);
  }

  override async readableScope(): Promise<ReadableScope> {
    if (!this.membership.member) return { everything: false, readableCollections: [], topLevel: false, explicitLevels: false, grantedSpaces: [], grantedCollections: [] };
    if (this.reach.allSpaces) return { everything: true };
    return { everything: false, readableCollections: [], topLevel: false, explicitLevels: false, grantedSpaces: this.reach.spaces, grantedCollections: [] };
  }

  /** Whether the installation is on this site (or on every site of its organization). */
  reachesSite(siteId: string): boolean {
    return this.membership.member && (this.reach.allSites || this.reach.sites.includes(siteId));
  }
}

/**
 * What a site's read token (the `apiToken` of getPublishedContentByUrl) reaches: in the site's organization,
 * the spaces its visitor was shown, with the read role; nothing else (no organization role, no collection).
 * Which operations it may call at all is decided before (features/urls/read-token.ts).
 */
export class SiteReaderAccess extends OrgAccess {
  readonly kind = 'site-reader';

  private constructor(
    db: Executor,
    organizationId: string,
    membership: Membership,
    private readonly spaces: readonly string[],
  ) {
    super(db, organizationId, membership, null, false);
  }

  static of(db: Executor, organizationId: string, caller: SiteReaderCaller): SiteReaderAccess {
    const inside = caller.organizationId === organizationId;
    return new SiteReaderAccess(db, organizationId, inside ? { member: true, role: null } : { member: false }, inside ? caller.spaceIds : []);
  }

  override async roleOn(node: AccessNode): Promise<Role | null> {
    return this.membership.member && this.spaces.includes(node.id) ? 'read' : null;
  }

  override async readableScope(): Promise<ReadableScope> {
    return { everything: false, readableCollections: [], topLevel: false, explicitLevels: false, grantedSpaces: this.membership.member ? [...this.spaces] : [], grantedCollections: [] };
  }
}

/** The spaces and sites an installation is on. */
export interface InstallationReach {
  allSpaces: boolean;
  allSites: boolean;
  spaces: string[];
  sites: string[];
}

/**
 * The role an installation's scopes give it on what it reaches: changing a space's settings is what a space
 * admin does, writing content what an editor does; any other scope reads. Pure, so the rule is tested alone.
 */
export function roleOfScopes(scopes: readonly string[]): Role | null {
  if (scopes.includes('space:metadata:write')) return 'admin';
  if (scopes.includes('space:content:write')) return 'edit';
  return scopes.length > 0 ? 'read' : null;
}

/** Whether an access is an installation's (and so limited to the sites it is on). */
export function isInstallationAccess(access: OrgAccess): access is InstallationAccess {
  return access instanceof InstallationAccess;
}

export type ReadableScope =
  | { everything: true }
  | {
      everything: false;
      readableCollections: string[];
      topLevel: boolean;
      explicitLevels: boolean;
      /** Spaces granted to the user (or a team of theirs) directly. */
      grantedSpaces: string[];
      /** Collections granted to the user (or a team of theirs), and every collection below them. */
      grantedCollections: string[];
    };

/** A grant as far as access is concerned. */
export interface GrantRow {
  target_type: string;
  target_id: string;
  role: string;
}

/**
 * Whether a space is in a readable scope: the same rules as the SQL filter of spaces/store.ts, for counting
 * the spaces of many members against one read of the organization's spaces.
 */
export function spaceInScope(scope: ReadableScope, space: AccessNode): boolean {
  if (scope.everything) return true;
  const level = space.default_level;
  if (scope.explicitLevels && level !== null && level !== 'inherit') return true;
  if (level === 'inherit') {
    if (scope.topLevel && space.parent_id === null) return true;
    if (space.parent_id !== null && scope.readableCollections.includes(space.parent_id)) return true;
  }
  if (scope.grantedSpaces.includes(space.id)) return true;
  return space.parent_id !== null && scope.grantedCollections.includes(space.parent_id);
}

function indexGrants(rows: readonly GrantRow[]): GrantIndex {
  const index: GrantIndex = { rolesOn: new Map(), spaces: [], collections: [] };
  for (const row of rows) {
    if (!isRole(row.role)) continue;
    const roles = index.rolesOn.get(row.target_id);
    if (roles) roles.push(row.role);
    else {
      index.rolesOn.set(row.target_id, [row.role]);
      (row.target_type === 'collection' ? index.collections : index.spaces).push(row.target_id);
    }
  }
  return index;
}

function childrenIn(tree: Map<string, ContentNode>): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const [id, node] of tree) {
    if (!node.parentId) continue;
    const siblings = children.get(node.parentId);
    if (siblings) siblings.push(id);
    else children.set(node.parentId, [id]);
  }
  return children;
}

function subtree(children: Map<string, string[]>, rootId: string): string[] {
  const result = new Set<string>();
  const stack = [rootId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (result.has(id)) continue;
    result.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return [...result];
}

/** A member row as a membership: disabled members are not members; an unknown role counts as none. */
export function membershipOf(row: { role: string | null; disabled: number }): Membership {
  if (row.disabled) return { member: false };
  return { member: true, role: row.role !== null && isRole(row.role) ? row.role : null };
}

function toNode(row: { default_level: string | null; parent_id: string | null }): ContentNode {
  return { defaultLevel: parseDefaultLevel(row.default_level), parentId: row.parent_id };
}
