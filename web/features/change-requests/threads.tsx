import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { faComment } from '@fortawesome/free-solid-svg-icons';
import { ErrorNote } from '../../ui/states.tsx';
import { commentApi, repliesQuery, type CommentPlace, type Thread } from './comment-place.ts';
import { Button } from '../../ui/button.tsx';
import { TextArea } from '../../ui/text-field.tsx';
import { Tooltip } from '../../ui/tooltip.tsx';
import { Badge } from '../../ui/badge.tsx';

/*
 * Comment threads beside the blocks they are about, in a change request's diff or in the editor (a change
 * request's discussion or the space's: see comment-place.ts): the comment, its replies, a reply box, a reaction,
 * resolve and reopen. Bodies are shown as their markdown, as written.
 */

const THUMBS_UP = '👍';

export function CommentThread({ place, thread, userId }: { place: CommentPlace; thread: Thread; userId: string }) {
  const queryClient = useQueryClient();
  const replies = useQuery(repliesQuery(place, thread.id, thread.replies));
  const [reply, setReply] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: place.key });
  const send = useMutation({ mutationFn: () => commentApi.reply(place, thread.id, reply), onSuccess: async () => (setReply(''), await refresh()) });
  const update = useMutation({ mutationFn: (body: Parameters<typeof commentApi.update>[2]) => commentApi.update(place, thread.id, body), onSuccess: refresh });
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
        <strong>{thread.postedBy.displayName}</strong> {resolved ? <Badge tone="success">Resolved</Badge> : null}
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
        <Tooltip content={mine ? 'Remove your reaction' : 'React with a thumbs-up'}>
          <Button
            variant="ghost"
            size="sm"
            aria-pressed={mine}
            onClick={() => update.mutate(mine ? { removedReactions: [THUMBS_UP] } : { addedReactions: [THUMBS_UP] })}
          >
            {THUMBS_UP} {thumbs?.count ?? 0}
            <span className="sr-only"> thumbs-up</span>
          </Button>
        </Tooltip>
        <Button variant="ghost" size="sm" onClick={() => update.mutate({ resolved: !resolved })}>
          {resolved ? 'Reopen' : 'Resolve'}
        </Button>
      </div>
      <ErrorNote error={update.error} />
      {thread.permissions.reply !== false ? (
        <form className="comment-form" onSubmit={onReply}>
          <TextArea label={`Reply to ${thread.postedBy.displayName}`} hideLabel value={reply} placeholder="Reply…" onChange={(e) => setReply(e.target.value)} />
          <Button type="submit" disabled={send.isPending || !reply.trim()}>
            Reply
          </Button>
          <ErrorNote error={send.error} />
        </form>
      ) : null}
    </article>
  );
}

/** What a new comment is about: a block (its key) or the whole page, said in words, with the text to quote. */
export interface CommentTarget {
  node?: string;
  what: string;
  quote?: string;
}

/** Threads whose block is no longer in the page, each with what it was on: listed, not lost. */
export function OutdatedThreads({ place, threads, userId, Heading }: { place: CommentPlace; threads: Thread[]; userId: string; Heading: 'h2' | 'h3' }) {
  return (
    <section aria-label="Outdated comments">
      <Heading>Outdated comments</Heading>
      <p className="muted">Their block is no longer in the page.</p>
      {threads.map((thread) => (
        <div key={thread.id}>
          {thread.target.node?.preview ? <p className="muted">On “{thread.target.node.preview}”</p> : null}
          <CommentThread place={place} thread={thread} userId={userId} />
        </div>
      ))}
    </section>
  );
}

/**
 * A comment on a block (or the whole page when no block is named); what was selected in the block is quoted.
 * `target` is read as the button is pressed (before the press moves focus and clears the selection): the editor
 * comments on the block the selection is in.
 */
export function NewComment({ place, pageId, what, target, starter }: {
  place: CommentPlace;
  pageId: string;
  what: string;
  target: () => CommentTarget;
  /** Set to what starts the comment as the button does: for a "Comment" elsewhere (the editor's selection toolbar). */
  starter?: { current: (() => void) | null };
}) {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<CommentTarget | null>(null);
  const [text, setText] = useState('');
  const caretPlaced = useRef(false);
  const post = useMutation({
    mutationFn: (about: CommentTarget) => commentApi.post(place, { page: pageId, ...(about.node ? { node: about.node } : {}), markdown: text }),
    onSuccess: async () => {
      setText('');
      setChosen(null);
      await queryClient.invalidateQueries({ queryKey: place.key });
    },
  });
  const choose = () => {
    const about = target();
    const quoted = about.quote?.trim();
    if (quoted && !text) setText(`> ${quoted}\n\n`);
    caretPlaced.current = false;
    setChosen(about);
  };
  if (starter) starter.current = choose;
  if (!chosen) {
    return (
      <Button
        size="sm"
        icon={faComment}
        aria-label={`Comment on ${what}`}
        // Chosen on the press, while the editor still has the selection; the press's own focusing is prevented, or it
        // would take the focus from the comment's field (the button is gone by then) and leave it on the page's body.
        onMouseDown={(event) => {
          event.preventDefault();
          choose();
        }}
        onClick={() => (chosen ? undefined : choose())}
      >
        Comment
      </Button>
    );
  }
  return (
    <form
      className="comment-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim()) post.mutate(chosen);
      }}
    >
      <TextArea
        label={`Comment on ${chosen.what}`}
        value={text}
        autoFocus
        // The caret after the quote, where the person's words go (the browser puts it at the start).
        onFocus={(e) => {
          if (caretPlaced.current) return;
          caretPlaced.current = true;
          e.currentTarget.setSelectionRange(e.currentTarget.value.length, e.currentTarget.value.length);
        }}
        onChange={(e) => setText(e.target.value)}
      />
      <div className="thread-actions">
        <Button variant="primary" type="submit" disabled={post.isPending || !text.trim()}>
          Post comment
        </Button>
        <Button onClick={() => setChosen(null)}>
          Cancel
        </Button>
      </div>
      <ErrorNote error={post.error} />
    </form>
  );
}
