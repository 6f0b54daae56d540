/** What sign-in reads of domains: whether an organization proved it holds an e-mail address's domain. */
export { isDomainVerified } from './store.ts';
