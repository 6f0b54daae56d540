/** What other features read of grants (the spaces a team reaches, its counters), and the transfers' clean-up. */
export { deleteGrantsOnTransferred, listGrantsOfTeams } from './store.ts';
