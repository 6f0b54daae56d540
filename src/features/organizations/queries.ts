/** Whether an organization exists, for the features whose lists and creations live inside one. */
export { findOrganization } from './store.ts';
