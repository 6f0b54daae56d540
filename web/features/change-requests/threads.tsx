import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { keys } from '../../api/queries.ts';
import { ErrorNote } from '../../ui/states.tsx';
import { repliesQuery, reviewApi, type Thread } from './review-api.ts';

/*
 * Comment threads of a change request beside the blocks they are about: the comment, its replies, a reply box,
 * a reaction, resolve and reopen. Bodies are shown as their markdown, as written.
 */

const THUMBS_UP = '👍';

export function CommentThread({ spaceId, number, thread, userId }: { spaceId: string; number: string; thread: Thread; userId: string }) {
  const queryClient = useQueryClient();
  const replies = useQuery(repliesQuery(spaceId, number, thread.id, thread.replies));
  const [reply, setReply] = useState('');
  const replyId = useId();
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.changeRequest(spaceId, number) });
  const send = useMutation({ mutationFn: () => reviewApi.reply(spaceId, number, thread.id, reply), onSuccess: async () => (setReply(''), await refresh()) });
  const update = useMutation({ mutationFn: (body: Parameters<typeof reviewApi.updateComment>[3]) => reviewApi.updateComment(spaceId, number, thread.id, body), onSuccess: refresh });
  const thumbs = thread.reactions.find((r) => r.emoji === THUMBS_UP);
  const mine = !!thumbs?.users.some((u) => u.user.id === userId);
  const resolved = thread.status === 'resolved';
  const onReply = (event: FormEvent) => {
    event.preventDefault();
    if (reply.trim()) send.mutate();
  };
  return (
    <article className={resolved ? 'thread thread-resolved' : 'thread'} aria-label={`Comment by ${thread.postedBy.displayName}`}>
      <p>
        <strong>{thread.postedBy.displayName}</strong> {resolved ? <span className="badge">Resolved</span> : null}
      </p>
      <p>{thread.body.markdown}</p>
      {replies.data && replies.data.items.length > 0 ? (
        <div className="replies">
          {replies.data.items.map((r) => (
            <p key={r.id}>
              <strong>{r.postedBy.displayName}</strong>: {r.body.markdown}
            </p>
          ))}
        </div>
      ) : null}
      <ErrorNote error={replies.error} />
      <div className="thread-actions">
        <button
          type="button"
          className="link-button"
          aria-pressed={mine}
          title={mine ? 'Remove your reaction' : 'React with a thumbs-up'}
          onClick={() => update.mutate(mine ? { removedReactions: [THUMBS_UP] } : { addedReactions: [THUMBS_UP] })}
        >
          {THUMBS_UP} {thumbs?.count ?? 0}
          <span className="sr-only"> thumbs-up</span>
        </button>
        <button type="button" className="link-button" onClick={() => update.mutate({ resolved: !resolved })}>
          {resolved ? 'Reopen' : 'Resolve'}
        </button>
      </div>
      <ErrorNote error={update.error} />
      {thread.permissions.reply !== false ? (
        <form className="comment-form" onSubmit={onReply}>
          <label htmlFor={replyId} className="sr-only">
            Reply to {thread.postedBy.displayName}
          </label>
          <textarea id={replyId} value={reply} placeholder="Reply…" onChange={(e) => setReply(e.target.value)} />
          <button type="submit" className="button" disabled={send.isPending || !reply.trim()}>
            Reply
          </button>
          <ErrorNote error={send.error} />
        </form>
      ) : null}
    </article>
  );
}

/** A comment on a block (or the whole page when no block is named); what was selected in the block is quoted. */
export function NewComment({ spaceId, number, pageId, node, what, quote }: { spaceId: string; number: string; pageId: string; node?: string; what: string; quote?: () => string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const id = useId();
  const post = useMutation({
    mutationFn: () => reviewApi.postComment(spaceId, number, { page: pageId, ...(node ? { node } : {}), markdown: text }),
    onSuccess: async () => {
      setText('');
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: keys.changeRequest(spaceId, number) });
    },
  });
  if (!open) {
    return (
      <button
        type="button"
        className="link-button"
        aria-label={`Comment on ${what}`}
        // Read the selection before the click moves focus and clears it.
        onMouseDown={() => {
          const quoted = quote?.().trim();
          if (quoted && !text) setText(`> ${quoted}\n\n`);
        }}
        onClick={() => setOpen(true)}
      >
        Comment
      </button>
    );
  }
  return (
    <form
      className="comment-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim()) post.mutate();
      }}
    >
      <label htmlFor={id}>Comment on {what}</label>
      <textarea id={id} value={text} autoFocus onChange={(e) => setText(e.target.value)} />
      <div className="thread-actions">
        <button type="submit" className="button button-primary" disabled={post.isPending || !text.trim()}>
          Post comment
        </button>
        <button type="button" className="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      <ErrorNote error={post.error} />
    </form>
  );
}
