import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { isNotFound } from '../../api/client.ts';
import { keys, meQuery, spaceQuery } from '../../api/queries.ts';
import type { Revision } from '../../api/types.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import type { AppLinks } from '../pages/links.ts';
import { indexPages, pageAtPath, type PageIndex, type TreePage } from '../pages/page-tree.ts';
import { PageTreeEditor, type TreeEditing } from '../pages/page-tree-editor.tsx';
import { SpaceHeader } from '../spaces/space-header.tsx';
import { editAccess, targetName, type EditTarget } from './edit-target.ts';
import { openDraftChangeRequest, readChangeRequestTarget, readPageAt, readTargetRevision, writeChanges } from './editing-api.ts';
import { PageEditing } from './page-editing.tsx';

/** `/s/:spaceId/~/edit/:pageId`: the page being edited, with the tree beside it; the space's first page without one. */
export default function EditingScreen() {
  const { spaceId = '', pageId } = useParams();
  const space = useQuery(spaceQuery(spaceId));
  const me = useQuery(meQuery());
  useTitle(space.data ? `Editing ${space.data.title}` : undefined);
  const access = space.data ? editAccess(space.data as { editMode?: string; permissions?: { edit?: boolean } }) : undefined;
  // `?changeRequest=<id>`: edits go to that change request, with whoever else edits there.
  const [search] = useSearchParams();
  const chosen = search.get('changeRequest');
  const target = useQuery({
    queryKey: ['space', spaceId, 'edit-target', me.data?.id, chosen],
    queryFn: (): Promise<EditTarget> =>
      chosen ? readChangeRequestTarget(spaceId, chosen) : access?.canEdit && access.mode === 'live' ? Promise.resolve({ kind: 'live' }) : openDraftChangeRequest(spaceId, me.data!),
    enabled: Boolean(access?.canEdit && me.data),
    // Live edits go to the space itself: nothing to ask, so nothing waits for it.
    initialData: access?.canEdit && access.mode === 'live' && !chosen ? ({ kind: 'live' } as const) : undefined,
    staleTime: Infinity,
    retry: false,
  });

  const failure = space.error ?? me.error ?? target.error;
  if (failure && isNotFound(failure)) return <main id="main" className="app-main"><NotFound what="space" /></main>;
  return (
    <main id="main" className="app-main space-screen editing-screen">
      <SpaceHeader spaceId={spaceId} space={space.data} />
      <ErrorNote error={failure} />
      {access && !access.canEdit ? (
        <section className="page" aria-labelledby="cannot-edit">
          <h1 id="cannot-edit">This space cannot be edited</h1>
          <p role="note">{access.reason}</p>
          <p>
            <Link to={`/s/${spaceId}/`}>Read the space</Link>
          </p>
        </section>
      ) : target.data && space.data ? (
        <EditTargetView spaceId={spaceId} organizationId={space.data.organization} target={target.data} pageId={pageId} />
      ) : failure ? null : (
        <Skeleton lines={10} label="Opening the editor" />
      )}
    </main>
  );
}

function EditTargetView({ spaceId, organizationId, target, pageId }: { spaceId: string; organizationId: string; target: EditTarget; pageId?: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const treeKey = useMemo(() => ['space', spaceId, 'edit', targetName(target), 'tree'], [spaceId, target]);
  const tree = useQuery({
    queryKey: treeKey,
    queryFn: ({ signal }) => readTargetRevision(spaceId, target, signal),
    // The live space's tree is the one the page view showed (the same read): opening the editor from it asks nothing.
    initialData: () => (target.kind === 'live' ? queryClient.getQueryData<Revision>(keys.revision(spaceId)) : undefined),
    staleTime: Infinity,
  });
  const index = useMemo(() => (tree.data ? indexPages(tree.data.pages as TreePage[]) : undefined), [tree.data]);
  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: treeKey });
    void queryClient.invalidateQueries({ queryKey: ['space', spaceId, 'revision'] });
  }, [queryClient, treeKey, spaceId]);
  // Another page of a change request named in the address is edited in it too.
  const [search] = useSearchParams();
  const chosen = search.get('changeRequest');
  const editPath = useCallback((id: string) => `/s/${spaceId}/~/edit/${id}${chosen ? `?changeRequest=${encodeURIComponent(chosen)}` : ''}`, [spaceId, chosen]);
  // The revision the page editor started from, kept while the tree is read again after each of its own changes.
  const revisionId = tree.data?.id;

  const editing = useMemo<TreeEditing>(
    () => ({
      write: async (changes) => {
        const answer = await writeChanges(spaceId, target, changes);
        return { revision: answer.revision, created: answer.changes.filter((c) => c.object === 'created_page').map((c) => (typeof c.page === 'string' ? c.page : c.page.id)) };
      },
      documentOf: async (id) => (await readPageAt(spaceId, (queryClient.getQueryData(treeKey) as Revision).id, id)).document ?? null,
      editPath,
    }),
    [spaceId, target, queryClient, treeKey, editPath],
  );

  if (tree.error) return <ErrorNote error={tree.error} />;
  if (!tree.data || !index || !revisionId) return <Skeleton lines={10} label="Loading the pages" />;
  const page = pageId ? index.byId.get(pageId) : pageAtPath(index, '');
  return (
    <div className="space-body">
      <PageTreeEditor
        pages={tree.data.pages as TreePage[]}
        index={index}
        currentId={page?.id}
        revision={revisionId}
        editing={editing}
        onChanged={refresh}
        onCreated={(id) => void navigate(editPath(id))}
      />
      {page && page.type === 'document' ? (
        <PageEditingAt
          key={page.id}
          spaceId={spaceId}
          organizationId={organizationId}
          target={target}
          pageId={page.id}
          revisionId={revisionId}
          links={appLinks(spaceId, index, tree.data, editPath)}
          files={tree.data.files}
          variables={{ space: tree.data.variables, page: page.variables }}
          onSaved={refresh}
        />
      ) : page ? (
        <div className="page">
          <h1>{page.title}</h1>
          <p>A {page.type} has no document to edit: rename, move or delete it from its menu in the tree.</p>
        </div>
      ) : pageId ? (
        <div className="page"><NotFound what="page in this space" /></div>
      ) : (
        <div className="page"><h1>No pages yet</h1><p>Add the first one with “New page”.</p></div>
      )}
    </div>
  );
}

/** Keeps the revision the page was opened at while the tree moves on under it. */
function PageEditingAt(props: Parameters<typeof PageEditing>[0]) {
  const [opened] = useState(props.revisionId);
  return (
    <article className="page" aria-label="Page being edited">
      <PageEditing {...props} revisionId={opened} />
    </article>
  );
}

function appLinks(spaceId: string, index: PageIndex, revision: Revision, editPath: (id: string) => string): AppLinks {
  const files = new Map(((revision as { files?: { id: string; name: string; downloadURL: string }[] }).files ?? []).map((f) => [f.id, f]));
  return {
    page: (id, otherSpace) => {
      if (otherSpace && otherSpace !== spaceId) return null;
      const target = index.byId.get(id);
      return target ? { href: `/app${editPath(target.id)}`, title: target.title } : null;
    },
    file: (fileId) => {
      const file = files.get(fileId);
      return file ? { href: file.downloadURL, name: file.name } : null;
    },
  };
}
