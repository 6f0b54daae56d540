import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { api, isNotFound } from '../../api/client.ts';
import { keys, organizationQuery } from '../../api/queries.ts';
import type { Organization } from '../../api/types.ts';
import { ErrorNote, NotFound, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { ROLE_OPTIONS, choiceOf, roleOf, type RoleChoice } from '../members/roles.ts';
import { settingsChanges, type SettingsForm } from './organization-changes.ts';
import { Button } from '../../ui/button.tsx';
import { Select } from '../../ui/select.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { placeError } from '../../ui/use-submit.ts';
import { Checkbox } from '../../ui/choices.tsx';

/**
 * An organization's settings, as updateOrganizationById takes them: title, logo URL, subdomain, the role a new
 * member gets, the e-mail domains that join by themselves, and invite links on or off. Only what changed is sent.
 */
export default function OrganizationSettingsScreen() {
  const { orgId = '' } = useParams();
  const organization = useQuery(organizationQuery(orgId));
  useTitle(organization.data ? `Settings · ${organization.data.title}` : 'Settings');
  if (isNotFound(organization.error)) return <main id="main" className="app-main"><NotFound what="organization" /></main>;
  return (
    <main id="main" className="app-main">
      <h1>Organization settings</h1>
      {organization.isPending ? <Skeleton lines={5} label="Loading the settings" /> : null}
      <ErrorNote error={organization.error} />
      {organization.data ? <SettingsFormView key={organization.data.id} organization={organization.data} /> : null}
    </main>
  );
}

const formOf = (organization: Organization): SettingsForm => ({
  title: organization.title,
  logo: organization.urls.logo ?? '',
  hostname: organization.hostname ?? '',
  defaultRole: choiceOf(organization.defaultRole),
  emailDomains: organization.emailDomains.join(', '),
  inviteLinks: organization.inviteLinks,
});

function SettingsFormView({ organization }: { organization: Organization }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<SettingsForm>(() => formOf(organization));
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () => {
      const changes = settingsChanges(formOf(organization), form);
      if ('defaultRole' in changes) changes.defaultRole = roleOf(changes.defaultRole as RoleChoice);
      return api<Organization>('PATCH', `/orgs/${organization.id}`, { body: changes });
    },
    onSuccess: async () => {
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: keys.organization(organization.id) });
      await queryClient.invalidateQueries({ queryKey: keys.organizations });
    },
  });
  const set = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => {
    setSaved(false);
    setForm({ ...form, [key]: value });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const canEdit = organization.permissions.admin;
  // A refusal naming a field shows beside it ("hostname must match …"); the form keeps what was typed.
  const refused = placeError(save.error, ['title', 'logo', 'hostname', 'emailDomains']);
  return (
    <form className="panel" onSubmit={submit}>
      <fieldset disabled={!canEdit || save.isPending}>
        <legend className="sr-only">Settings of {organization.title}</legend>
        <TextField label="Title" value={form.title} onChange={(e) => set('title', e.target.value)} required minLength={2} maxLength={255} error={refused.fields.title} />
        <TextField label="Logo URL" type="url" value={form.logo} onChange={(e) => set('logo', e.target.value)} placeholder="https://example.com/logo.svg" error={refused.fields.logo} />
        <TextField label="Subdomain" value={form.hostname} onChange={(e) => set('hostname', e.target.value)} hint="3 to 32 lowercase letters, digits and dashes." error={refused.fields.hostname} />
        <Select label="Default role of new members" value={form.defaultRole} onValueChange={(role) => set('defaultRole', role)} options={ROLE_OPTIONS} />
        <TextField label="E-mail domains" value={form.emailDomains} onChange={(e) => set('emailDomains', e.target.value)} placeholder="example.com, example.org"
          hint="People with an address at these domains may join by themselves." error={refused.fields.emailDomains} />
        <Checkbox label="Invite links can be used to join" checked={form.inviteLinks} onCheckedChange={(on) => set('inviteLinks', on)} />
        <p><Button variant="primary" type="submit">Save settings</Button> {saved ? <span role="status">Saved.</span> : null}</p>
      </fieldset>
      {!canEdit ? <p className="muted">Only the organization’s admins change its settings.</p> : null}
      <ErrorNote error={refused.form} />
    </form>
  );
}
