import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { translationQuery } from '../../api/queries.ts';
import { ResourceScreen } from '../../ui/resource-screen.tsx';

export default function TranslationScreen() {
  const { orgId = '', translationId = '' } = useParams();
  return (
    <ResourceScreen
      query={useQuery(translationQuery(orgId, translationId))}
      what="translation"
      title={(t) => t.title}
      facts={(t) => [
        ['Status', t.status],
        ['Languages', t.languages.join(', ') || '—'],
        ['Source space', t.source ? <Link to={`/o/${orgId}/s/${t.source.space}`}>{t.source.language}</Link> : '—'],
        ['Translated spaces', t.targets.length === 0 ? '—' : <>{t.targets.map((target) => <Link key={target.space} className="fact-link" to={`/o/${orgId}/s/${target.space}`}>{target.language}</Link>)}</>],
      ]}
    />
  );
}
