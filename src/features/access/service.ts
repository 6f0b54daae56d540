import type { Executor } from '../../db/types.ts';
import type { Caller } from '../../platform/context.ts';
import { effectiveRole, type ContentNode, type Membership } from './levels.ts';
import { isRole, parseDefaultLevel, type Role } from './roles.ts';
import { findMemberRole, listCollectionLevels } from './store.ts';

/**
 * What one caller may do inside one organization: its membership and, loaded on first need, the collection
 * tree that default levels inherit through. Built once per request and organization.
 */
export class OrgAccess {
  private collections: Map<string, ContentNode> | undefined;

  constructor(
    private readonly db: Executor,
    readonly organizationId: string,
    readonly membership: Membership,
  ) {}

  static async load(db: Executor, organizationId: string, caller: Caller): Promise<OrgAccess> {
    const row = await findMemberRole(db, organizationId, caller.userId);
    const membership: Membership =
      row && !row.disabled ? { member: true, role: row.role === null ? null : isRole(row.role) ? row.role : null } : { member: false };
    return new OrgAccess(db, organizationId, membership);
  }

  get isMember(): boolean {
    return this.membership.member;
  }

  get orgRole(): Role | null {
    return this.membership.member ? this.membership.role : null;
  }

  /** Role on a space or collection, given its own default level and parent collection. */
  async roleOn(node: { default_level: string | null; parent_id: string | null }): Promise<Role | null> {
    if (!this.membership.member) return null;
    if (this.membership.role === 'admin' || this.membership.role === null) return effectiveRole(this.membership, toNode(node), () => undefined);
    const tree = await this.tree();
    return effectiveRole(this.membership, toNode(node), (id) => tree.get(id));
  }

  /**
   * What lists may show this caller, as filters a store can apply in SQL (so pagination stays keyset).
   * A collection is readable when the caller holds a role on it; a space whose default level is a role is
   * readable by every non-guest member; a space that inherits is readable when its parent is (or, at the
   * top level, when the member has an organization role).
   */
  async readableScope(): Promise<ReadableScope> {
    if (!this.membership.member) return { everything: false, readableCollections: [], topLevel: false, explicitLevels: false };
    if (this.membership.role === 'admin') return { everything: true };
    const nonGuest = this.membership.role !== null;
    const tree = await this.tree();
    const readableCollections: string[] = [];
    for (const [id, node] of tree) {
      if (effectiveRole(this.membership, node, (parentId) => tree.get(parentId)) !== null) readableCollections.push(id);
    }
    return { everything: false, readableCollections, topLevel: nonGuest, explicitLevels: nonGuest };
  }

  /** Ids of the collection and every collection below it. */
  async subtreeOf(collectionId: string): Promise<string[]> {
    const tree = await this.tree();
    const children = new Map<string, string[]>();
    for (const [id, node] of tree) if (node.parentId) children.set(node.parentId, [...(children.get(node.parentId) ?? []), id]);
    const result = new Set<string>();
    const stack = [collectionId];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (result.has(id)) continue;
      result.add(id);
      stack.push(...(children.get(id) ?? []));
    }
    return [...result];
  }

  private async tree(): Promise<Map<string, ContentNode>> {
    if (!this.collections) {
      const rows = await listCollectionLevels(this.db, this.organizationId);
      this.collections = new Map(rows.map((r) => [r.id, toNode(r)]));
    }
    return this.collections;
  }
}

export type ReadableScope =
  | { everything: true }
  | { everything: false; readableCollections: string[]; topLevel: boolean; explicitLevels: boolean };

function toNode(row: { default_level: string | null; parent_id: string | null }): ContentNode {
  return { defaultLevel: parseDefaultLevel(row.default_level), parentId: row.parent_id };
}
