import type { Static } from 'typebox';
import type { Executor } from '../../db/types.ts';
import { badRequest } from '../../platform/errors.ts';
import { memberIdsAmong } from '../members/queries.ts';
import type { MergeRulesStandalone } from './schemas.ts';

/**
 * Reviewers and bypassers named by merge rules must be members of the organization: a rule naming a user who
 * does not exist, or who belongs to another organization, could never be met (and would leak nothing, but
 * would block every merge). `field` names the body field in the message.
 */
export async function assertMergeRuleUsers(db: Executor, organizationId: string, mergeRules: Static<typeof MergeRulesStandalone> | { type: 'inherit' }, field = 'body/mergeRules'): Promise<void> {
  if (mergeRules.type !== 'rules') return;
  const named = mergeRules.rules.flatMap((rule, index) => ('users' in rule ? rule.users.map((user) => ({ user, index })) : []));
  const members = await memberIdsAmong(db, organizationId, [...new Set(named.map((n) => n.user))]);
  const stranger = named.find((n) => !members.has(n.user));
  if (stranger) throw badRequest(`${field}/rules/${stranger.index}/users: "${stranger.user}" is not a member of this organization`);
}
