import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answerHelpfulness, answerResolution, normalizedQuestion, questionKey, questionLanguage, questionRelevance, questionType } from './classify.ts';
import { inThreadOrder } from './service.ts';

describe('how a question and its answer are judged', () => {
  test('one question whatever its spacing, case and closing punctuation', () => {
    assert.equal(normalizedQuestion('  How do I   publish\na site?? '), 'How do I publish a site');
    assert.equal(questionKey('How do I publish a site?'), questionKey('how do i publish a SITE'));
    assert.equal(normalizedQuestion('x'.repeat(600)).length, 512);
  });

  test('the kind of question, by its words', () => {
    const cases: [string, string][] = [
      ['How do I revoke a share link?', 'how-to'],
      ['Add a custom domain', 'how-to'],
      ['Why does Git Sync fail with a 403 error?', 'troubleshooting'],
      ["The import doesn't finish", 'troubleshooting'],
      ['What is the maximum file size?', 'reference'],
      ['Which Markdown syntax is supported?', 'reference'],
      ['Can I use Quire for an internal wiki?', 'exploring'],
      ['Difference between spaces and collections', 'exploring'],
      ['pricing', 'unknown'],
    ];
    for (const [question, type] of cases) assert.equal(questionType(question), type, question);
  });

  test('spam, unclear, off-topic and relevant questions', () => {
    assert.equal(questionRelevance('!!!???', 3), 'spam');
    assert.equal(questionRelevance('https://spam.example/buy-now', 3), 'spam');
    assert.equal(questionRelevance('aaaaaaa', 0), 'spam');
    assert.equal(questionRelevance('sso', 0), 'unclear');
    assert.equal(questionRelevance('zebra quokka marmalade', 0), 'off-topic');
    assert.equal(questionRelevance('How do I revoke a share link?', 4), 'relevant');
  });

  test('answered, and how helpful: the reader’s rating wins over what the answer found', () => {
    assert.equal(answerResolution(false, 0), 'no');
    assert.equal(answerResolution(true, 0), 'partially');
    assert.equal(answerResolution(true, 2), 'yes');
    assert.equal(answerHelpfulness('yes', null), 'high');
    assert.equal(answerHelpfulness('partially', null), 'medium');
    assert.equal(answerHelpfulness('no', null), 'low');
    assert.equal(answerHelpfulness('yes', -1), 'low');
    assert.equal(answerHelpfulness('no', 1), 'high');
  });

  test("the question's language; a short one takes the site's", () => {
    assert.equal(questionLanguage('How do I revoke a share link?', 'fr'), 'en');
    assert.equal(questionLanguage('Wie lege ich eine eigene Domain an?', 'en'), 'de');
    assert.equal(questionLanguage('git sync', 'fr'), 'fr');
  });

  test('a thread in the order of the conversation, even when its answers share a millisecond', () => {
    const answers = [
      { id: 'c', previous_id: 'b' },
      { id: 'b', previous_id: 'a' },
      { id: 'a', previous_id: null },
      { id: 'd', previous_id: 'a' },
    ];
    assert.deepEqual(inThreadOrder(answers).map((a) => a.id), ['a', 'b', 'c', 'd']);
  });
});
