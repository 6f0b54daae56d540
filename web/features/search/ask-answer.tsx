import { useQueries } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { apiStream, errorMessage } from '../../api/client.ts';
import { pageQuery } from '../../api/queries.ts';
import { appPath } from '../../ui/app-path.ts';
import { Button } from '../../ui/button.tsx';

/** The official SearchAIAnswer as the app reads it: the answer's document, its page sources, follow-ups. */
interface AskAnswerEvent {
  type: 'answer';
  answer: {
    answer?: { nodes: unknown[] };
    followupQuestions: string[];
    sources: { type: 'page'; page: string; space: string; sections: string[] }[];
  };
}

/** A document's top-level blocks as plain text: the answer is a model's, shown as text, never as HTML. */
function blocksOf(document: { nodes: unknown[] } | undefined): string[] {
  const textOf = (node: unknown): string => {
    const n = node as { object?: string; leaves?: { text: string }[]; nodes?: unknown[] };
    if (n.object === 'text') return (n.leaves ?? []).map((l) => l.text).join('');
    return (n.nodes ?? []).map(textOf).join(n.object === 'block' && (n.nodes ?? []).some((c) => (c as { object?: string }).object === 'block') ? '\n' : '');
  };
  return (document?.nodes ?? []).map(textOf).filter((text) => text.trim() !== '');
}

/**
 * Ask in the app's search (Ctrl/Cmd-K): the question answered by streamAskInOrganization from what this member can
 * read, the answer growing as it streams, its sources as links to the pages, follow-ups asked with a click.
 */
export function AskAnswer({ orgId, question, onAsk, onOpen }: { orgId: string; question: string; onAsk: (question: string) => void; onOpen: () => void }) {
  const [event, setEvent] = useState<AskAnswerEvent | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(true);
  useEffect(() => {
    const controller = new AbortController();
    setEvent(undefined);
    setError(undefined);
    setBusy(true);
    void (async () => {
      try {
        for await (const next of apiStream<AskAnswerEvent>(`/orgs/${orgId}/ask/stream`, { query: { query: question }, signal: controller.signal })) setEvent(next);
      } catch (failure) {
        if (!controller.signal.aborted) setError(errorMessage(failure));
      } finally {
        if (!controller.signal.aborted) setBusy(false);
      }
    })();
    return () => controller.abort();
  }, [orgId, question]);

  const sources = event?.answer.sources ?? [];
  const pages = useQueries({ queries: sources.map((s) => ({ ...pageQuery(s.space, s.page), enabled: !busy })) });
  return (
    <section className="ask-answer" aria-label="Answer from the docs" aria-busy={busy}>
      {error ? (
        <p role="alert" className="error-note">
          No answer: {error}
        </p>
      ) : !event ? (
        <p className="muted">Reading the docs…</p>
      ) : (
        <>
          {blocksOf(event.answer.answer).map((text, i) => (
            <p key={i}>{text}</p>
          ))}
          {sources.length > 0 ? (
            <>
              <h3 className="ask-label">Sources</h3>
              <ol className="ask-sources">
                {sources.map((source, i) => {
                  const page = pages[i]?.data;
                  const anchor = source.sections[0] ? `#${encodeURIComponent(source.sections[0])}` : '';
                  return (
                    <li key={`${source.space}/${source.page}`}>
                      {page ? (
                        <Link to={`${appPath(page.urls.app)}${anchor}`} onClick={onOpen}>
                          {page.title}
                        </Link>
                      ) : (
                        <span className="muted">Page {i + 1}</span>
                      )}
                    </li>
                  );
                })}
              </ol>
            </>
          ) : null}
          {!busy && event.answer.followupQuestions.length > 0 ? (
            <>
              <h3 className="ask-label">Ask next</h3>
              <div className="ask-follow-ups">
                {event.answer.followupQuestions.map((followUp) => (
                  <Button key={followUp} variant="secondary" size="sm" onClick={() => onAsk(followUp)}>
                    {followUp}
                  </Button>
                ))}
              </div>
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
