import { test } from 'node:test';
import assert from 'node:assert/strict';
import { processingWords } from './processing.ts';

test("a spec's processing is said in words, failures with their reason", () => {
  assert.equal(processingWords({ processingState: 'pending' }), 'Waiting to be processed');
  assert.equal(processingWords({ processingState: 'progress' }), 'Processing…');
  assert.equal(processingWords({ processingState: 'complete', lastProcessedErrorCount: 0 }), 'Processed');
  assert.equal(processingWords({ processingState: 'complete', lastProcessedErrorCount: 2 }), 'Processed, with 2 problems');
  assert.equal(processingWords({ processingState: 'complete', lastProcessErrorCode: 'PARSE_ERROR' }), 'Failed: not a valid OpenAPI document');
  assert.equal(processingWords({ processingState: 'complete', lastProcessErrorCode: 'FETCH_TIMEOUT' }), 'Failed: the URL did not answer in time');
});
