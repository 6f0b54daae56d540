import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { SiteAgentSettings, SiteCustomizationSettings, SiteQuestion, SiteQuestionAnswerSource, SiteQuestionStats } from '@gitbook/api-latest';
import { api } from '../../api/client.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Switch } from '../../ui/choices.tsx';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { TextArea } from '../../ui/text-field.tsx';
import { keys } from '../../api/queries.ts';
import { customizationQuery, sitePath, type SiteTabProps } from './site-queries.ts';
import { useSiteChange } from './use-site-change.ts';
import { documentOfText, textOfDocument } from './instructions-text.ts';
import { askAvailabilityQuery } from '../search/ask-availability.ts';

interface Page<T> {
  items: T[];
  count: number;
}

/**
 * What readers asked the site's Ask and how it answered: whether Ask is on, the instructions its answers follow,
 * the questions most asked, those the docs did not answer and those readers rated down, each with the pages its
 * answers used (what to write next), and what agents reported about the pages.
 */
export default function SiteQuestionsTab({ orgId, site }: SiteTabProps) {
  return (
    <section aria-labelledby="questions-title" className="site-questions">
      <h2 id="questions-title">Questions</h2>
      <p className="muted">What readers asked the site’s Ask, and what the docs could not answer.</p>
      <Stats orgId={orgId} siteId={site.id} />
      <Tabs
        label="Questions"
        items={[
          { value: 'asked', label: 'Most asked', content: <QuestionList orgId={orgId} siteId={site.id} label="Most asked questions" query={{ sort: 'stats.answers', order: 'desc' }} empty="No reader has asked a question yet." /> },
          { value: 'unanswered', label: 'Unanswered', content: <QuestionList orgId={orgId} siteId={site.id} label="Questions the docs did not answer" query={{ sort: 'stats.answers', order: 'desc', answered: 'no' }} empty="Every question found its answer in the docs." /> },
          { value: 'rated-down', label: 'Rated down', content: <QuestionList orgId={orgId} siteId={site.id} label="Questions whose answers readers rated down" query={{ sort: 'stats.feedback', order: 'asc' }} keep={(q) => q.stats.feedback.negative > 0} empty="No reader rated an answer down." /> },
        ]}
      />
      <AgentFeedback orgId={orgId} siteId={site.id} />
      <section aria-labelledby="ask-settings-title">
        <h3 id="ask-settings-title">Ask settings</h3>
        <AskSwitch orgId={orgId} siteId={site.id} />
        <Instructions orgId={orgId} siteId={site.id} />
      </section>
    </section>
  );
}

const questionsKey = (orgId: string, siteId: string, ...rest: unknown[]) => [...keys.site(orgId, siteId), 'questions', ...rest];

/** Ask on or off for the site: its customization's `ai.mode` (none, or search with answers). */
function AskSwitch({ orgId, siteId }: { orgId: string; siteId: string }) {
  const customization = useQuery(customizationQuery(orgId, siteId));
  const availability = useQuery(askAvailabilityQuery(orgId));
  const change = useSiteChange(orgId, siteId);
  const data = customization.data as (SiteCustomizationSettings & { ai?: { mode: string } }) | undefined;
  // The site's setting is kept either way; without a model on the server, readers are offered no Ask whatever it says.
  const serverOff = availability.data?.available === false;
  const on = data?.ai?.mode !== 'none';
  return (
    <div className="panel">
      {data ? (
        <Switch
          label="Answer readers’ questions (Ask)"
          hint={
            serverOff
              ? `${availability.data?.message ?? 'Ask is off on this server'}. Readers are offered no Ask until it is set; this setting applies then.`
              : 'In the published site’s search, readers can ask a question and get an answer written from the docs, with its sources. The server’s operator sets the model (AI_PROVIDER_URL).'
          }
          checked={on && !serverOff}
          disabled={change.isPending || serverOff}
          onCheckedChange={(checked) => change.mutate({ method: 'PUT', path: '/customization', body: { ...data, ai: { mode: checked ? 'search' : 'none' } } as never })}
        />
      ) : (
        <Skeleton lines={1} label="Loading whether Ask is on" />
      )}
      <ErrorNote error={customization.error ?? change.error} />
    </div>
  );
}

/** The site's custom instructions (its agent settings), which every answer follows, as plain paragraphs. */
function Instructions({ orgId, siteId }: { orgId: string; siteId: string }) {
  const settings = useQuery({ queryKey: questionsKey(orgId, siteId, 'agent-settings'), queryFn: ({ signal }) => api<SiteAgentSettings>('GET', `${sitePath(orgId, siteId)}/agent-settings`, { signal }) });
  const change = useSiteChange<SiteAgentSettings>(orgId, siteId);
  const [text, setText] = useState<string | undefined>(undefined);
  const shown = text ?? (settings.data ? textOfDocument(settings.data.editing.customInstructions) : '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { scans: { topics: 'never' }, findings: { changeRequests: 'never' }, editing: { customInstructions: documentOfText(shown) } };
    change.mutate({ method: 'PUT', path: '/agent-settings', body }, { onSuccess: () => setText(undefined) });
  };
  return (
    <form className="panel" aria-label="Instructions for answers" onSubmit={submit}>
      <TextArea
        label="Instructions for answers"
        hint="Tone, audience, what to point readers to. Answers follow them, but never against the docs: page text and these instructions cannot change the rules answers keep."
        rows={4}
        value={shown}
        disabled={settings.isPending}
        onChange={(e) => setText(e.target.value)}
      />
      <Button type="submit" loading={change.isPending} disabled={settings.isPending || text === undefined}>Save instructions</Button>
      <ErrorNote error={settings.error ?? change.error} />
    </form>
  );
}

const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${Math.round((part / whole) * 100)} %`);

function Stats({ orgId, siteId }: { orgId: string; siteId: string }) {
  const stats = useQuery({ queryKey: questionsKey(orgId, siteId, 'stats'), queryFn: ({ signal }) => api<SiteQuestionStats>('GET', `${sitePath(orgId, siteId)}/question-stats`, { signal }) });
  if (stats.isPending) return <Skeleton lines={1} label="Loading the counts" />;
  if (!stats.data) return <ErrorNote error={stats.error} />;
  const s = stats.data;
  return (
    <div role="group" aria-label="Ask in numbers">
      <dl className="question-stats">
        <div><dt>Questions</dt><dd>{s.total}</dd></div>
        <div><dt>Answers</dt><dd>{s.answers}</dd></div>
        <div><dt>Answered from the docs</dt><dd>{percent(s.answered.yes, s.answers)}</dd></div>
        <div><dt>Rated up / down</dt><dd>{s.feedback.positive} / {s.feedback.negative}</dd></div>
      </dl>
    </div>
  );
}

const TYPE_LABELS: Record<string, string> = { 'how-to': 'How-to', troubleshooting: 'Problem', reference: 'Reference', exploring: 'Exploring', unknown: 'Other' };

function QuestionList({ orgId, siteId, label, query, keep, empty }: {
  orgId: string;
  siteId: string;
  label: string;
  query: Record<string, string>;
  keep?: (question: SiteQuestion) => boolean;
  empty: string;
}) {
  const questions = useQuery({
    queryKey: questionsKey(orgId, siteId, 'list', query),
    queryFn: ({ signal }) => api<Page<SiteQuestion>>('GET', `${sitePath(orgId, siteId)}/questions`, { query: { ...query, limit: 50 }, signal }),
  });
  const items = (questions.data?.items ?? []).filter((q) => !keep || keep(q));
  return (
    <div>
      {questions.isPending ? <Skeleton lines={3} label="Loading the questions" /> : null}
      <ErrorNote error={questions.error} />
      {questions.data && items.length === 0 ? <p>{empty}</p> : null}
      {items.length > 0 ? (
        <ul className="row-list question-list" aria-label={label}>
          {items.map((question) => <QuestionRow key={question.id} orgId={orgId} siteId={siteId} question={question} />)}
        </ul>
      ) : null}
    </div>
  );
}

function QuestionRow({ orgId, siteId, question }: { orgId: string; siteId: string; question: SiteQuestion }) {
  const [open, setOpen] = useState(false);
  const { stats } = question;
  return (
    <li>
      <div className="question-row">
        <strong>{question.question}</strong>
        <span className="question-badges">
          <Badge>{TYPE_LABELS[question.type] ?? question.type}</Badge>
          <Badge tone="info">{stats.answers === 1 ? 'Asked once' : `Asked ${stats.answers} times`}</Badge>
          {stats.answered.no > 0 ? <Badge tone="warning">{stats.answered.no === stats.answers ? 'Not answered' : `Not answered ${stats.answered.no}×`}</Badge> : null}
          {stats.feedback.positive > 0 ? <Badge tone="success">{`Rated up ${stats.feedback.positive}`}</Badge> : null}
          {stats.feedback.negative > 0 ? <Badge tone="danger">{`Rated down ${stats.feedback.negative}`}</Badge> : null}
        </span>
        <Button variant="ghost" size="sm" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide the pages' : 'Pages used'}
          <span className="visually-hidden">{` for “${question.question}”`}</span>
        </Button>
      </div>
      {open ? <QuestionSources orgId={orgId} siteId={siteId} question={question} /> : null}
    </li>
  );
}

function QuestionSources({ orgId, siteId, question }: { orgId: string; siteId: string; question: SiteQuestion }) {
  const sources = useQuery({
    queryKey: questionsKey(orgId, siteId, 'sources', question.id),
    queryFn: ({ signal }) => api<Page<SiteQuestionAnswerSource>>('GET', `${sitePath(orgId, siteId)}/questions/${question.id}/sources`, { signal }),
  });
  if (sources.isPending) return <Skeleton lines={1} label="Loading the pages" />;
  if (!sources.data) return <ErrorNote error={sources.error} />;
  if (sources.data.items.length === 0) return <p className="muted">No page answered it: the docs may need one.</p>;
  return (
    <ul className="question-sources" aria-label={`Pages used for “${question.question}”`}>
      {sources.data.items.map((source) => (
        <li key={source.id}>
          {source.type === 'page' ? <Link to={`/s/${source.space}/~/edit/${source.page}`}>{source.title || 'A page'}</Link> : source.title}
          <span className="muted">{` · ${Math.round(source.weight * 100)} % of the citations`}</span>
        </li>
      ))}
    </ul>
  );
}

interface AgentFeedbackItem {
  id: string;
  feedback: string;
  url: string;
  spaceId: string;
  pageId: string;
  createdAt: string;
}

function AgentFeedback({ orgId, siteId }: { orgId: string; siteId: string }) {
  const feedback = useQuery({ queryKey: questionsKey(orgId, siteId, 'agent-feedback'), queryFn: ({ signal }) => api<Page<AgentFeedbackItem>>('GET', `${sitePath(orgId, siteId)}/agent-feedback`, { signal }) });
  return (
    <section aria-labelledby="agent-feedback-title">
      <h3 id="agent-feedback-title">What agents reported</h3>
      {feedback.isPending ? <Skeleton lines={2} label="Loading what agents reported" /> : null}
      <ErrorNote error={feedback.error} />
      {feedback.data && feedback.data.items.length === 0 ? <p className="muted">No agent has reported anything about these pages.</p> : null}
      {feedback.data && feedback.data.items.length > 0 ? (
        <ul className="row-list" aria-label="What agents reported">
          {feedback.data.items.map((item) => (
            <li key={item.id}>
              <span>{item.feedback}</span> <Link to={`/s/${item.spaceId}/~/edit/${item.pageId}`}>Open the page</Link>
              <span className="muted">{` · ${new Date(item.createdAt).toLocaleDateString()}`}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
