import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { keys } from '../../api/queries.ts';
import { ErrorNote } from '../../ui/states.tsx';
import { parseMarkedText, regionsOf, resolveMarkedText, type ConflictRegion } from './conflict-text.ts';
import { reviewApi, type MergeConflictReport } from './review-api.ts';
import { Button } from '../../ui/button.tsx';
import { TextArea } from '../../ui/text-field.tsx';

/*
 * Conflicts between a change request and the space's content, resolved by a person: for each region both sides
 * changed, keep main's version, the change request's, or write a combined one; then the page is written back.
 *
 * The server merges three ways and has no "resolved" input, so the resolution goes through the public API in
 * three steps that leave nothing to conflict: the page is reverted to the change request's base (revert_page),
 * main is brought in (updateChangeRequest, now clean for that page), and the resolved markdown is written over
 * it (update_page). A merge then only sees the change request's edit on top of main.
 */

export function ConflictResolver({ spaceId, number, conflicts, onResolved }: { spaceId: string; number: string; conflicts: MergeConflictReport[]; onResolved: () => void }) {
  const queryClient = useQueryClient();
  const contents = conflicts.filter((c): c is MergeConflictReport & { pageId: string; markedText: string } => c.kind === 'content' && !!c.pageId && typeof c.markedText === 'string');
  const others = conflicts.filter((c) => !contents.includes(c as never));
  const pages = useMemo(() => contents.map((c) => ({ pageId: c.pageId, message: c.message, pieces: parseMarkedText(c.markedText) })), [contents]);
  const [choices, setChoices] = useState<Record<string, string[]>>(() =>
    Object.fromEntries(pages.map((p) => [p.pageId, regionsOf(p.pieces).map((r) => sides(r).changeRequest)])),
  );
  const resolve = useMutation({
    mutationFn: async () => {
      await reviewApi.writeContent(spaceId, number, pages.map((p) => ({ operation: 'revert_page', page: p.pageId })));
      const updated = await reviewApi.updateFromMain(spaceId, number);
      if (updated.result === 'conflicts') throw new Error(`Main could not be brought in: ${(updated.conflicts ?? []).map((c) => c.message).join('; ')}`);
      await reviewApi.writeContent(
        spaceId,
        number,
        pages.map((p) => ({ operation: 'update_page', page: p.pageId, document: { markdown: resolveMarkedText(p.pieces, choices[p.pageId] ?? []) } })),
      );
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.changeRequest(spaceId, number) });
      onResolved();
    },
  });

  return (
    <section className="conflicts" aria-labelledby="conflicts-title">
      <h2 id="conflicts-title">Conflicts with the space’s content</h2>
      {others.length > 0 ? (
        <>
          <p>These cannot be resolved here; change the pages in the change request so that they no longer conflict:</p>
          <ul>{others.map((c, i) => <li key={i}>{c.message}</li>)}</ul>
        </>
      ) : null}
      {pages.map((page) => (
        <div key={page.pageId}>
          <p>{page.message}</p>
          {regionsOf(page.pieces).map((region, index) => (
            <RegionChoice
              key={index}
              index={index}
              region={region}
              value={choices[page.pageId]?.[index] ?? ''}
              onChange={(value) => setChoices((all) => ({ ...all, [page.pageId]: (all[page.pageId] ?? []).map((v, i) => (i === index ? value : v)) }))}
            />
          ))}
        </div>
      ))}
      {pages.length > 0 ? (
        <>
          <Button variant="primary" loading={resolve.isPending} onClick={() => resolve.mutate()}>
            Save the resolution
          </Button>
          <ErrorNote error={resolve.error} />
        </>
      ) : null}
    </section>
  );
}

/** Which side of a region is main: a merge writes main first, an update from main writes the change request first. */
function sides(region: ConflictRegion): { main: string; changeRequest: string; changeRequestLabel: string } {
  return region.oursLabel === 'main'
    ? { main: region.ours, changeRequest: region.theirs, changeRequestLabel: region.theirsLabel }
    : { main: region.theirs, changeRequest: region.ours, changeRequestLabel: region.oursLabel };
}

function RegionChoice({ index, region, value, onChange }: { index: number; region: ConflictRegion; value: string; onChange: (value: string) => void }) {
  const { main, changeRequest, changeRequestLabel } = sides(region);
  return (
    <div className="conflict" role="group" aria-label={`Conflict ${index + 1}`}>
      <div className="conflict-sides">
        <div>
          <h3>In the space (main)</h3>
          <pre>{main}</pre>
          <Button onClick={() => onChange(main)}>
            Keep the space’s version
          </Button>
        </div>
        <div>
          <h3>In {changeRequestLabel}</h3>
          <pre>{changeRequest}</pre>
          <Button onClick={() => onChange(changeRequest)}>
            Keep the change request’s version
          </Button>
        </div>
      </div>
      <TextArea label={`Resolved text of conflict ${index + 1} (markdown)`} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
