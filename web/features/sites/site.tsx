import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { siteQuery } from '../../api/queries.ts';
import { External, ResourceScreen } from '../../ui/resource-screen.tsx';

export default function SiteScreen() {
  const { orgId = '', siteId = '' } = useParams();
  return (
    <ResourceScreen
      query={useQuery(siteQuery(orgId, siteId))}
      what="site"
      title={(site) => site.title}
      facts={(site) => [
        ['Visibility', site.visibility],
        ['Published', site.urls.published ? <External href={site.urls.published} /> : 'Not published'],
        ['Basename', site.basename],
      ]}
    />
  );
}
