/** Whether an organization exists, for the features whose lists and creations live inside one. */
export { findOrganization } from './store.ts';
/** Merge rules name members only (spaces check their own rules the same way). */
export { assertMergeRuleUsers } from './merge-rules.ts';
