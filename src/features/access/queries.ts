/**
 * What other features' stores may compose from access's: the owns-a-team subquery (an organization's
 * `permissions.ownTeam`). Other features reach a feature's data through its service.ts or its queries.ts,
 * never its store.ts (.dependency-cruiser.cjs).
 */
export { listGrantsReachingUsers, ownsTeamIn } from './store.ts';
