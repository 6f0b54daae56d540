/** What other features read of users: members are invited by email. */
export { findUserByEmail } from './store.ts';
