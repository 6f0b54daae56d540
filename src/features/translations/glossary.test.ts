import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { glossaryBatchProblem, glossaryTerms, protectTerms, type GlossaryTranslations } from './glossary.ts';

const LANGUAGES = new Set(['en', 'fr', 'de']);

describe('translation glossary', () => {
  test('a batch names unknown languages, blank terms and an entry named twice', () => {
    assert.equal(glossaryBatchProblem([{ type: 'insert', translations: { en: 'Space', fr: 'Espace' } }, { type: 'delete', id: 'a' }], LANGUAGES), null);
    assert.equal(glossaryBatchProblem([{ type: 'insert', translations: { xx: 'Space' } }], LANGUAGES), 'body/operations/0/translations/xx is not a language code of translations');
    assert.equal(glossaryBatchProblem([{ type: 'insert', translations: {} }], LANGUAGES), 'body/operations/0/translations must name the term in at least one language');
    assert.equal(glossaryBatchProblem([{ type: 'update', id: 'a', translations: { en: ' ' } }], LANGUAGES), 'body/operations/0/translations/en must not be blank');
    assert.match(glossaryBatchProblem([{ type: 'update', id: 'a', translations: { en: 'x' } }, { type: 'delete', id: 'a' }], LANGUAGES)!, /^body\/operations\/1\/id/);
  });

  test('terms go from the source to the target, longest first; an auto source takes every other language', () => {
    const entries: GlossaryTranslations[] = [{ en: 'pull', fr: 'tirer' }, { en: 'pull request', fr: 'demande de fusion', de: 'Pull-Request' }, { de: 'Bereich' }];
    assert.deepEqual(glossaryTerms(entries, 'en', 'fr'), [
      { source: 'pull request', target: 'demande de fusion' },
      { source: 'pull', target: 'tirer' },
    ]);
    assert.deepEqual(glossaryTerms(entries, 'auto', 'de').map((t) => t.source), ['demande de fusion', 'pull request']);
    assert.deepEqual(glossaryTerms(entries, 'en', 'it'), []);
  });

  test('terms become markers (whole words, any case) and come back as the target says', () => {
    const terms = glossaryTerms([{ en: 'Space', fr: 'Espace' }, { en: 'change request', fr: 'demande de changement' }], 'en', 'fr');
    const { texts, restore } = protectTerms(['Open a Change Request in the space.', 'Spaces and spaceship stay.', ''], terms);
    assert.deepEqual(texts, ['Open a [[0]] in the [[1]].', 'Spaces and spaceship stay.', '']);
    // A provider may space the marker out; one it dropped loses only its term.
    assert.deepEqual(restore(['Ouvrez une [[ 0 ]] dans le [[1]].', 'Les espaces restent.', '']), ['Ouvrez une demande de changement dans le Espace.', 'Les espaces restent.', '']);
    assert.deepEqual(protectTerms(['No terms'], []).texts, ['No terms']);
  });
});
