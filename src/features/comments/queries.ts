/** The counters other features show of comments (a change request's open comments), one query per list. */
export { openCommentCountsOfChangeRequests, openCommentsOfChangeRequest } from './store.ts';
