/** What other features read of users: members are invited by email. */
export { findUserByEmail, findUserById } from './store.ts';
