import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { keys, sitesQuery, spacesQuery } from '../../api/queries.ts';
import type { Integration, IntegrationInstallation } from '../../api/types.ts';
import { ErrorNote, Skeleton } from '../../ui/states.tsx';
import { ContentKitView } from './contentkit/contentkit-view.tsx';
import { installedOnQuery, type ContentInstallation } from './integrations-api.ts';
import { Button } from '../../ui/button.tsx';

type Kind = 'spaces' | 'sites';

/**
 * Where the installation reaches: all spaces (sites) of the organization, or the ones chosen here
 * (installIntegrationOnSpace / uninstallIntegrationFromSpace, and the site ones). An integration whose target
 * excludes spaces or sites is not offered them (the API would refuse).
 */
export function InstallationReach({ orgId, integration, installation }: { orgId: string; integration: Integration; installation: IntegrationInstallation }) {
  const target = integration.target ?? 'all';
  return (
    <>
      {target === 'all' || target === 'space' ? <Reach kind="spaces" orgId={orgId} integration={integration} installation={installation} /> : null}
      {target === 'all' || target === 'site' ? <Reach kind="sites" orgId={orgId} integration={integration} installation={installation} /> : null}
    </>
  );
}

function Reach({ kind, orgId, integration, installation }: { kind: Kind; orgId: string; integration: Integration; installation: IntegrationInstallation }) {
  const queryClient = useQueryClient();
  const base = `/integrations/${integration.name}/installations/${installation.id}`;
  // Both hooks run (hooks keep their order); only this kind's list is shown.
  const spaces = useQuery({ ...spacesQuery(orgId), enabled: kind === 'spaces' });
  const sites = useQuery({ ...sitesQuery(orgId), enabled: kind === 'sites' });
  const content = kind === 'spaces' ? spaces : sites;
  const installed = useQuery(installedOnQuery(orgId, integration.name, installation.id, kind));
  const selection = kind === 'spaces' ? installation.space_selection : installation.site_selection;
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.installation(orgId, integration.name) });
  const select = useMutation({
    mutationFn: (value: 'all' | 'selected') => api('PATCH', base, { body: { [kind === 'spaces' ? 'space_selection' : 'site_selection']: value } }),
    onSuccess: refresh,
  });
  const toggle = useMutation({
    mutationFn: ({ id, on }: { id: string; on: boolean }) =>
      on ? api('POST', `${base}/${kind}`, { body: kind === 'spaces' ? { space: id } : { siteId: id } }) : api('DELETE', `${base}/${kind}/${id}`),
    onSuccess: refresh,
  });
  const on = new Map((installed.data ?? []).map((item) => [item.space ?? item.site, item]));
  const noun = kind === 'spaces' ? 'space' : 'site';
  // The integration's own screen for one space's (site's) configuration, when it has one (configurations.space).
  const componentId = (integration.configurations as Record<string, { componentId?: unknown } | undefined> | undefined)?.[noun]?.componentId;
  const [configuring, setConfiguring] = useState<string | null>(null);
  return (
    <section className="panel" aria-labelledby={`reach-${kind}`}>
      <h2 id={`reach-${kind}`}>{kind === 'spaces' ? 'Spaces' : 'Sites'}</h2>
      <fieldset>
        <legend className="sr-only">Which {kind}</legend>
        <label className="ck-choice"><input type="radio" name={`selection-${kind}`} checked={selection === 'all'} disabled={select.isPending} onChange={() => select.mutate('all')} /> All {kind} of the organization</label>{' '}
        <label className="ck-choice"><input type="radio" name={`selection-${kind}`} checked={selection !== 'all'} disabled={select.isPending} onChange={() => select.mutate('selected')} /> Only the {kind} chosen below</label>
      </fieldset>
      <ErrorNote error={select.error} />
      {content.isPending || installed.isPending ? <Skeleton lines={2} label={`Loading ${kind}`} /> : null}
      <ErrorNote error={content.error ?? installed.error ?? toggle.error} />
      {content.data ? (
        content.data.length === 0 ? <p className="muted">The organization has no {noun} yet.</p> : (
          <ul className="choice-list" aria-label={`Installed on these ${kind}`}>
            {content.data.map((item) => (
              <li key={item.id}>
                <label>
                  <input type="checkbox" checked={selection === 'all' || on.has(item.id)} disabled={selection === 'all' || toggle.isPending}
                    onChange={(event) => toggle.mutate({ id: item.id, on: event.target.checked })} />
                  {item.title}
                </label>
                {typeof componentId === 'string' && on.has(item.id) ? (
                  <Button aria-expanded={configuring === item.id} onClick={() => setConfiguring(configuring === item.id ? null : item.id)}>
                    Configure<span className="sr-only"> {item.title}</span>
                  </Button>
                ) : null}
                {typeof componentId === 'string' && configuring === item.id && on.has(item.id) ? (
                  <ContentConfiguration noun={noun} integration={integration.name} componentId={componentId} targetId={item.id} title={item.title}
                    installed={on.get(item.id)!} onSaved={() => void refresh()} />
                ) : null}
              </li>
            ))}
          </ul>
        )
      ) : null}
    </section>
  );
}

/**
 * One space's or site's configuration through the integration's component, rendered as GitBook renders it: a
 * configuration_space (configuration_site) context naming the space, and the space installation as props; the
 * integration saves it through the API as the installation (updateIntegrationSpaceInstallation).
 */
function ContentConfiguration({ noun, integration, componentId, targetId, title, installed, onSaved }: {
  noun: 'space' | 'site';
  integration: string;
  componentId: string;
  targetId: string;
  title: string;
  installed: ContentInstallation;
  onSaved: () => void;
}) {
  const [saved, setSaved] = useState(false);
  const theme = document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
  return (
    <section className="panel" aria-label={`Configuration of ${title}`}>
      {saved ? <p role="status">Configuration of {title} saved.</p> : null}
      <ContentKitView
        integration={integration}
        componentId={componentId}
        props={{ [`${noun}Installation`]: { configuration: installed.configuration } }}
        context={noun === 'space' ? { type: 'configuration_space', theme, spaceId: targetId } : { type: 'configuration_site', theme, siteId: targetId }}
        onComplete={() => {
          setSaved(true);
          onSaved();
        }}
      />
    </section>
  );
}
