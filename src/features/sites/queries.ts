/**
 * What other features read of sites: integration events find the organization a render's site belongs to.
 * Other features reach a feature's data through its service.ts or its queries.ts, never its store.ts
 * (.dependency-cruiser.cjs).
 */
export { organizationOfSite } from './store.ts';
