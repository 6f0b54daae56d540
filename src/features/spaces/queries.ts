/**
 * What other features read or write of spaces: members and teams list and count them (with access's readable
 * scope), collections carry their spaces along when deleted or transferred, and content writes and merges point
 * the space at its new revision.
 */
export { countSpaces, detachSpacesFromCollections, findSpace, findSpaces, listSpaceLevels, listSpaces, spaceIdsOf, moveSpacesOfCollections, updateSpace, type SpaceFilter, type SpaceRow } from './store.ts';
