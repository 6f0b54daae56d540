/**
 * What other features read or write of memberships: the first admin of a new organization, a member by id,
 * members with their users, and member references of a team's body resolved to users.
 */
export { findMember, findMembersWithUsers, insertMemberRow, listActiveMembersByUser, memberIdsAmong, resolveMemberRefs } from './store.ts';
