import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collaborationDocumentName, parseCollaborationDocumentName } from './document-name.ts';

describe('collaboration document names', () => {
  it('a live page and a change request page read back as they were named', () => {
    const live = { spaceId: 'sp1', target: { kind: 'live' as const }, pageId: 'pg1' };
    const cr = { spaceId: 'sp1', target: { kind: 'change-request' as const, changeRequestId: 'cr1' }, pageId: 'pg1' };
    assert.equal(collaborationDocumentName(live), 'spaces/sp1/live/pg1');
    assert.equal(collaborationDocumentName(cr), 'spaces/sp1/change-requests/cr1/pg1');
    assert.deepEqual(parseCollaborationDocumentName('spaces/sp1/live/pg1'), live);
    assert.deepEqual(parseCollaborationDocumentName('spaces/sp1/change-requests/cr1/pg1'), cr);
  });

  it('anything else names no document', () => {
    for (const name of ['', 'spaces', 'spaces/sp1/live', 'spaces/sp1/live/pg1/x', 'spaces/../live/pg1', 'rooms/a/live/b', 'spaces/sp1/change-requests/pg1', `spaces/${'a'.repeat(65)}/live/p`]) {
      assert.equal(parseCollaborationDocumentName(name), null, name);
    }
  });
});
