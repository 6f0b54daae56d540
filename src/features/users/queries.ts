/** What other features read of users: members are invited by email; a SAML session names its user. */
export { findUserByEmail, findUserById } from './store.ts';
