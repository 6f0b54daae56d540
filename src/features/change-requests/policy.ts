import { allowIf, Policy } from '../../platform/policy.ts';
import { atLeast } from '../access/roles.ts';
import { SPACE_RULES, type SpaceStanding } from '../spaces/policy.ts';

/**
 * Who may do what with the change requests of a space (the API shows no `permissions` on a change request; the
 * space's `edit` and `merge` flags are the ones that speak for them, so those rules are the space's own).
 * Opening one and changing its content is editing the space; merging is the space's `merge`; its settings and
 * bringing main's changes into it need the edit role only, so a locked space's change requests can still be
 * archived or kept up to date. Reviewing is the space's `review`; asking for reviews, like its settings, the edit
 * role (a locked space's change requests can still be reviewed).
 */
export const changeRequestPolicy = new Policy<SpaceStanding, 'create' | 'editContent' | 'update' | 'merge' | 'review' | 'requestReview'>({
  create: SPACE_RULES.edit,
  editContent: SPACE_RULES.edit,
  update: allowIf((s) => atLeast(s.role, 'edit'), 'needs the edit role on the space'),
  merge: SPACE_RULES.merge,
  review: SPACE_RULES.review,
  requestReview: allowIf((s) => atLeast(s.role, 'edit'), 'needs the edit role on the space'),
});
