import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { faFileImport, faGlobe, faPlus, faUserPlus } from '@fortawesome/free-solid-svg-icons';
import { api, errorMessage } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import { TEMPLATE_IDS, templateDescription } from '../../../src/features/content/templates.ts';
import { RadioGroup } from '../../ui/choices.tsx';
import { Button, buttonClass } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialogs.tsx';
import { Icon } from '../../ui/icon.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { ErrorNote } from '../../ui/states.tsx';
import { placeError } from '../../ui/use-submit.ts';
import { useToast } from '../../ui/toast.tsx';
import { postSpace } from './sidebar-actions.ts';

/**
 * A new organization's first actions, where its home would otherwise list empty sections: write in a space, bring
 * existing docs in, invite the people who write them, publish them.
 */
export function FirstSteps({ orgId }: { orgId: string }) {
  return (
    <section aria-labelledby="first-steps-title" className="first-steps">
      <h2 id="first-steps-title">Get started</h2>
      <ul className="first-steps-list">
        <li>
          <h3><Icon icon={faPlus} /> Create a space</h3>
          <p>A space holds one set of pages: a product’s guide, a handbook, an API’s reference.</p>
          <NewSpace orgId={orgId} />
        </li>
        <li>
          <h3><Icon icon={faFileImport} /> Import your docs</h3>
          <p>A folder in a .zip (a GitBook export, an MkDocs or Docusaurus site, markdown files), Word or HTML documents, or a Git repository.</p>
          <Link className={buttonClass()} to={`/o/${orgId}/import`}>Import</Link>
        </li>
        <li>
          <h3><Icon icon={faUserPlus} /> Invite people</h3>
          <p>Members write and review with you, each with a role.</p>
          <Link className={buttonClass()} to={`/o/${orgId}/members`}>Invite people</Link>
        </li>
        <li>
          <h3><Icon icon={faGlobe} /> Publish a site</h3>
          <p>A site publishes spaces as a documentation website, public or for signed-in visitors.</p>
          <Link className={buttonClass()} to={`/o/${orgId}/sites`}>Publish a site</Link>
        </li>
      </ul>
    </section>
  );
}

// The server's built-in templates (applyTemplateToSpace), named as the server describes them.
const TEMPLATE_OPTIONS = TEMPLATE_IDS.map((id) => ({ value: id, label: id[0]!.toUpperCase() + id.slice(1).replace(/-/g, ' '), hint: templateDescription(id) }));

function NewSpace({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const [template, setTemplate] = useState('blank');
  // The space and its template are written before the organization's lists are read again: the new space ends the
  // first steps (this dialog with them), so what follows must not depend on this component still being there.
  const create = useMutation({
    mutationFn: async () => {
      const space = await postSpace(orgId, { title });
      const templateError = await api('POST', `/spaces/${space.id}/content/template`, { body: { id: template } }).then(
        () => undefined,
        (error: unknown) => errorMessage(error),
      );
      return { space, templateError };
    },
    onSuccess: async ({ space, templateError }) => {
      // The space is there either way: it opens, and a template that could not be added is said in a toast.
      if (templateError) toast({ title: `${space.title} was created without its template`, description: templateError, tone: 'error' });
      await queryClient.invalidateQueries({ queryKey: keys.spaces(orgId) });
      await navigate(`/o/${orgId}/s/${space.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const refused = placeError(create.error, ['title']);
  return (
    <Dialog title="New space" open={open} onOpenChange={setOpen} trigger={<Button variant="primary">Create a space</Button>}>
      <form onSubmit={submit} aria-label="New space">
        <TextField label="Title" required maxLength={50} value={title} onChange={(e) => setTitle(e.target.value)} error={refused.fields.title} autoFocus />
        <RadioGroup legend="Start from" options={TEMPLATE_OPTIONS} value={template} onValueChange={setTemplate} />
        <ErrorNote error={refused.form} />
        <div className="ui-dialog-actions">
          <Button onClick={() => setOpen(false)}>Cancel</Button>
          <Button type="submit" variant="primary" loading={create.isPending}>Create space</Button>
        </div>
      </form>
    </Dialog>
  );
}
