// What other features read of the search index: the sections Ask answers from (features/ask).
export { openingSectionsOf, relevantSections, sectionsByIds, type RelevantSection, type SearchScope, type SectionRow } from './store.ts';
export { nearestSections, type NearSection } from './embeddings.ts';
