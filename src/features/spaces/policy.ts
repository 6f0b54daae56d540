import { conflict } from '../../platform/errors.ts';
import { allOf, allowIf, Policy, type Rule } from '../../platform/policy.ts';
import { atLeast, type Role } from '../access/roles.ts';

/** What the rules of a space decide on: the caller's role on it and whether it is locked. */
export interface SpaceStanding {
  role: Role | null;
  editMode: string;
}

const role = (min: Role) => allowIf<SpaceStanding>((s) => atLeast(s.role, min), `needs the ${min} role on the space`);
const unlocked = (before: string) =>
  allowIf<SpaceStanding>((s) => s.editMode !== 'locked', `is refused: the space is locked; an admin must set editMode to "live" before ${before}`);

/**
 * Who may do what with a space: the `permissions` of a space and the checks of every operation on it and its
 * content. A locked space cannot be edited, nor changes merged into it, until an admin unlocks it. Git Sync
 * (import and export) takes the edit role, and an import an unlocked space.
 */
export const SPACE_RULES = {
  view: role('read'),
  access: role('read'),
  admin: role('admin'),
  viewInviteLinks: role('admin'),
  edit: allOf(role('edit'), unlocked('its content can change')),
  triggerGitSync: allOf(role('edit'), unlocked('Git Sync can change its content')),
  comment: role('comment'),
  merge: allOf(role('review'), unlocked('merging')),
  review: role('review'),
  installIntegration: role('admin'),
} satisfies Record<string, Rule<SpaceStanding>>;

export const spacePolicy = new Policy<SpaceStanding, keyof typeof SPACE_RULES>(SPACE_RULES);

const permissionsByRole = new Map<string, ReturnType<typeof spacePolicy.flags>>();

/**
 * The space's `permissions` for a caller holding `role` on it, computed once per role and edit mode: every
 * presented space carries them, so the object is shared (read-only).
 */
export function spacePermissions(role: Role | null, editMode: string) {
  const key = `${role} ${editMode}`;
  let flags = permissionsByRole.get(key);
  if (!flags) permissionsByRole.set(key, (flags = spacePolicy.flags({ role, editMode })));
  return flags;
}

/** Changing the content of a space (live, in a change request, by template or import): the `edit` flag. */
export function assertCanEditContent(role: Role | null, editMode: string): void {
  spacePolicy.assert({ role, editMode }, 'edit', 'Editing the content of this space');
}

/**
 * A person's write straight to the space's main line (a live edit, a template, an import into the space): the
 * `edit` flag, and live edits on. A space whose editMode is `change-requests` changes through change requests only
 * (Git Sync and translations, which keep the space in step with another source, still write it).
 */
export function assertCanEditLive(role: Role | null, editMode: string): void {
  assertCanEditContent(role, editMode);
  if (editMode !== 'live') {
    throw conflict(`The space's editMode is "${editMode}": its content changes through change requests; open one, or an admin sets editMode to "live"`);
  }
}

/** Settings, trash, moves and transfers of a space: the `admin` flag. */
export function assertSpaceAdmin(role: Role | null, doing: string): void {
  spacePolicy.assert({ role, editMode: 'live' }, 'admin', doing);
}
