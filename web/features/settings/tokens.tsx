import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, errorMessage } from '../../api/client.ts';
import { keys, tokensQuery } from '../../api/queries.ts';
import type { CreatedUserToken } from '../../api/types.ts';
import { TextField } from '../../ui/text-field.tsx';
import { placeError } from '../../ui/use-submit.ts';
import { EmptyState, ErrorNote, Skeleton } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';
import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';

/** Personal API tokens: create one (its value is shown once, to copy), see when each was used, revoke. */
export default function TokensScreen() {
  useTitle('API tokens');
  const queryClient = useQueryClient();
  const tokens = useQuery(tokensQuery());
  const [label, setLabel] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [created, setCreated] = useState<CreatedUserToken | null>(null);
  const [copied, setCopied] = useState(false);
  const [revokeError, setRevokeError] = useState<{ id: string; message: string } | null>(null);
  const create = useMutation({
    mutationFn: () => api<CreatedUserToken>('POST', '/user/tokens', { body: { label, ...(expiresAt ? { expiresAt: new Date(`${expiresAt}T23:59:59Z`).toISOString() } : {}) } }),
    onSuccess: (token) => {
      setCreated(token);
      setCopied(false);
      setLabel('');
      setExpiresAt('');
      return queryClient.invalidateQueries({ queryKey: keys.tokens });
    },
  });
  // Answers false when the API refused: the confirmation stays open with the message.
  const revoke = async (id: string) => {
    setRevokeError(null);
    try {
      await api('DELETE', `/user/tokens/${id}`);
      if (created?.id === id) setCreated(null);
      await queryClient.invalidateQueries({ queryKey: keys.tokens });
      return true;
    } catch (e) {
      setRevokeError({ id, message: errorMessage(e) });
      return false;
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  // A refusal naming the label or the date shows beside it ("expiresAt must be in the future").
  const refused = placeError(create.error, ['label', 'expiresAt']);
  const copy = async () => {
    if (!created) return;
    await navigator.clipboard.writeText(created.token);
    setCopied(true);
  };
  return (
    <main id="main" className="app-main">
      <h1>API tokens</h1>
      <p>A token lets a script call the API as you: <code>Authorization: Bearer &lt;token&gt;</code>.</p>
      <section className="panel" aria-labelledby="new-token">
        <h2 id="new-token">Create a token</h2>
        <form onSubmit={submit} className="inline-form">
          <TextField label="Label" required maxLength={100} value={label} onChange={(e) => setLabel(e.target.value)} error={refused.fields.label} />
          <TextField label="Expires on" type="date" value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} error={refused.fields.expiresAt} />
          <Button variant="primary" type="submit" disabled={create.isPending}>Create token</Button>
        </form>
        <ErrorNote error={refused.form} />
        {created ? (
          <div role="status" className="invitation">
            <p>Copy the token “{created.label}” now: it is shown only once.</p>
            <input readOnly aria-label="New token" value={created.token} onFocus={(e) => e.target.select()} />
            <Button onClick={copy}>{copied ? 'Copied' : 'Copy token'}</Button>
          </div>
        ) : null}
      </section>
      <h2>Your tokens</h2>
      {tokens.isPending ? <Skeleton lines={3} label="Loading your tokens" /> : null}
      <ErrorNote error={tokens.error} />
      {tokens.data && tokens.data.items.length === 0 ? (
        <EmptyState headingLevel={3} title="No token yet">
          <p>An API token lets a script or a CI job call the API as you. Create one in “Create a token”; it is shown once.</p>
        </EmptyState>
      ) : null}
      {tokens.data && tokens.data.items.length > 0 ? (
        <ul className="row-list">
          {tokens.data.items.map((token) => (
            <li key={token.id}>
              <strong>{token.label}</strong>
              <span className="muted">
                created {new Date(token.createdAt).toLocaleDateString()} · {token.lastUsedAt ? `last used ${new Date(token.lastUsedAt).toLocaleString()}` : 'never used'}
                {token.expiresAt ? ` · expires ${new Date(token.expiresAt).toLocaleDateString()}` : ''}
              </span>
              <AlertDialog
                title={`Revoke the token ${token.label}?`}
                description="Scripts that use it are refused from now on. A revoked token cannot be brought back: create a new one."
                confirm="Revoke token"
                onConfirm={() => revoke(token.id)}
                error={revokeError?.id === token.id ? revokeError.message : undefined}
                onOpenChange={(open) => open || setRevokeError(null)}
                trigger={<Button variant="danger" size="sm">Revoke {token.label}</Button>}
              />
            </li>
          ))}
        </ul>
      ) : null}
    </main>
  );
}
