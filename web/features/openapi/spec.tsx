import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { openApiSpecQuery } from '../../api/queries.ts';
import { External, ResourceScreen } from '../../ui/resource-screen.tsx';

export default function OpenApiSpecScreen() {
  const { orgId = '', specSlug = '' } = useParams();
  return (
    <ResourceScreen
      query={useQuery(openApiSpecQuery(orgId, specSlug))}
      what="OpenAPI specification"
      title={(spec) => spec.slug}
      facts={(spec) => [
        ['Source', <External href={spec.sourceURL} />],
        ['Visibility', spec.visibility],
        ['Processing', spec.processingState],
        ['Published', spec.urls.published ? <External href={spec.urls.published} /> : 'Not public'],
      ]}
    />
  );
}
