/** What other features read of users: members are invited by email; a new comment names its author. */
export { findUserByEmail, findUserById } from './store.ts';
