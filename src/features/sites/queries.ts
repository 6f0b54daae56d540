/**
 * What other features read of sites: integration events find the organization a render's site belongs to, agents'
 * feedback the spaces a site publishes.
 * Other features reach a feature's data through its service.ts or its queries.ts, never its store.ts
 * (.dependency-cruiser.cjs).
 */
export { organizationOfSite, siteSpacesOfSite } from './store.ts';
