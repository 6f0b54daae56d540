/**
 * What other features read or write of change requests: content reads the one a revision
 * was merged from, and marks one updated when its content changes (in the transaction of that change).
 */
export { findChangeRequest, updateChangeRequest, type ChangeRequestView } from './store.ts';
