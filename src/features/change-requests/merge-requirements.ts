import type { Static } from 'typebox';
import type { MergeRulesStandalone } from '../organizations/schemas.ts';
import type { SpaceMergeRules } from '../spaces/schemas.ts';

export type MergeRules = Static<typeof MergeRulesStandalone>;
export type ReviewStatus = 'approved' | 'changes-requested';

/** What the merge rules of a change request are checked against, read when the merge is asked for. */
export interface MergeFacts {
  /** Who asks for the merge. */
  mergerId: string;
  subject: string;
  /** The change request has a description that says something. */
  described: boolean;
  /** The change request is not based on the space's current revision. */
  outdated: boolean;
  /** The reviews that still count: each reviewer's latest, not superseded by a new request to them. */
  reviews: readonly { reviewerId: string; status: ReviewStatus }[];
}

/** The rules in force for a space: its own, or its organization's when it inherits them. */
export function effectiveMergeRules(space: Static<typeof SpaceMergeRules>, organization: MergeRules): MergeRules {
  return space.type === 'inherit' ? organization : space;
}

/**
 * What the merge rules (the official MergeRule list: all must pass) still ask of a change request before it may
 * be merged, one sentence each; empty when it may be merged. A person named by `allow_bypass` may merge whatever
 * the other rules say. This server has no review agents, so the rule that asks for one cannot be met: it says so,
 * and only a bypass gets past it.
 */
export function unmetMergeRules(rules: MergeRules, facts: MergeFacts): string[] {
  if (rules.type !== 'rules') return [];
  if (rules.rules.some((rule) => rule.rule === 'allow_bypass' && 'users' in rule && rule.users.includes(facts.mergerId))) return [];
  const approvers = new Set(facts.reviews.filter((r) => r.status === 'approved').map((r) => r.reviewerId));
  const unmet: string[] = [];
  for (const rule of rules.rules) {
    const users: readonly string[] = 'users' in rule ? rule.users : [];
    switch (rule.rule) {
      case 'require_at_least_one_review':
        if (approvers.size === 0) unmet.push('it needs at least one approving review');
        break;
      case 'require_all_reviews_approved': {
        const against = facts.reviews.filter((r) => r.status === 'changes-requested').map((r) => r.reviewerId);
        if (against.length > 0) unmet.push(`every review must approve it, and ${against.join(', ')} requested changes`);
        break;
      }
      case 'require_specific_reviewers': {
        const missing = users.filter((user) => !approvers.has(user));
        if (missing.length > 0) unmet.push(`it needs the approval of ${missing.join(', ')}`);
        break;
      }
      case 'require_one_of_specific_reviewers':
        if (!users.some((user) => approvers.has(user))) unmet.push(`it needs the approval of one of ${users.join(', ')}`);
        break;
      case 'require_up_to_date_change_request':
        if (facts.outdated) unmet.push("it must be up to date with the space's content first (updateChangeRequest)");
        break;
      case 'require_change_request_subject':
        if (facts.subject.trim() === '') unmet.push('it needs a subject');
        break;
      case 'require_change_request_description':
        if (!facts.described) unmet.push('it needs a description');
        break;
      case 'require_agent_review':
        unmet.push('it needs a review by an agent, which this server does not provide');
        break;
      case 'allow_bypass':
        break;
    }
  }
  return unmet;
}
