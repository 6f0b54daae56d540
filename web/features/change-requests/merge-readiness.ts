/*
 * Why the merge button is disabled, said before anyone presses it. The server decides (mergeChangeRequest checks
 * the space's permission, the status and the merge rules again, and reports conflicts); this reads the same facts
 * the screen already has, so a person sees what is missing instead of a refusal after the click.
 */

export interface MergeRule {
  rule: string;
  users?: string[];
}

export type MergeRules = { type: 'rules'; rules: MergeRule[] } | { type: 'none' } | { type: 'inherit' };

export interface MergeFacts {
  status: string;
  subject: string;
  /** The description says something. */
  described: boolean;
  outdated: boolean;
  /** The space's `permissions.merge` for the signed-in person. */
  mayMerge: boolean;
  /** The signed-in person. */
  userId: string;
  /** The current reviews: each reviewer's latest. */
  reviews: readonly { reviewerId: string; reviewerName: string; status: string }[];
  /** People named by the rules, by id. */
  names: ReadonlyMap<string, string>;
  /** Conflicts reported by the last merge or update attempt. */
  conflicts: number;
}

export function effectiveRules(space: MergeRules | undefined, organization: MergeRules | undefined): MergeRules {
  if (!space || space.type === 'inherit') return organization && organization.type !== 'inherit' ? organization : { type: 'none' };
  return space;
}

/** One sentence per reason the change request cannot be merged now; empty when it can. */
export function mergeBlockers(rules: MergeRules, facts: MergeFacts): string[] {
  const reasons: string[] = [];
  if (facts.status === 'merged') return ['It is already merged.'];
  if (facts.status === 'archived') reasons.push('It is archived: reopen it first.');
  if (!facts.mayMerge) reasons.push('You do not have permission to merge into this space (it takes the review role).');
  if (facts.conflicts > 0) reasons.push(`It conflicts with the space’s content (${facts.conflicts} ${facts.conflicts === 1 ? 'conflict' : 'conflicts'}): resolve them on this page.`);
  if (rules.type !== 'rules') return reasons;
  if (rules.rules.some((r) => r.rule === 'allow_bypass' && r.users?.includes(facts.userId))) return reasons;
  const approvers = new Set(facts.reviews.filter((r) => r.status === 'approved').map((r) => r.reviewerId));
  const name = (id: string) => facts.names.get(id) ?? id;
  for (const rule of rules.rules) {
    const users = rule.users ?? [];
    switch (rule.rule) {
      case 'require_at_least_one_review':
        if (approvers.size === 0) reasons.push('The merge rules ask for at least one approving review.');
        break;
      case 'require_all_reviews_approved': {
        const against = facts.reviews.filter((r) => r.status === 'changes-requested').map((r) => r.reviewerName);
        if (against.length > 0) reasons.push(`The merge rules ask every review to approve, and ${against.join(', ')} requested changes.`);
        break;
      }
      case 'require_specific_reviewers': {
        const missing = users.filter((u) => !approvers.has(u));
        if (missing.length > 0) reasons.push(`The merge rules ask for the approval of ${missing.map(name).join(', ')}.`);
        break;
      }
      case 'require_one_of_specific_reviewers':
        if (!users.some((u) => approvers.has(u))) reasons.push(`The merge rules ask for the approval of one of ${users.map(name).join(', ')}.`);
        break;
      case 'require_up_to_date_change_request':
        if (facts.outdated) reasons.push('The merge rules ask it to be up to date: update it from main first.');
        break;
      case 'require_change_request_subject':
        if (facts.subject.trim() === '') reasons.push('The merge rules ask for a subject.');
        break;
      case 'require_change_request_description':
        if (!facts.described) reasons.push('The merge rules ask for a description.');
        break;
      case 'require_agent_review':
        reasons.push('The merge rules ask for a review by an agent, which this server does not provide.');
        break;
    }
  }
  return reasons;
}
