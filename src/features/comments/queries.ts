/** The counters other features show of comments (a space's and a change request's open comments), one query per list. */
export { openCommentCountsOfChangeRequests, openCommentCountsOfSpaces, openCommentsOfChangeRequest } from './store.ts';
