// What other features read of the search index: the sections Ask answers from (features/ask).
export { openingSectionsOf, relevantSections, type RelevantSection, type SearchScope, type SectionRow } from './store.ts';
