/** What other features read of grants: the spaces a team reaches (its counters). */
export { listGrantsOfTeams } from './store.ts';
