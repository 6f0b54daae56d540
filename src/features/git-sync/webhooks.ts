import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * A Git server's push webhook, read without HTTP or SQL: which server sent it (by its headers), whether it proves
 * the space's secret, what event it is and, for a push, which branches it moved. Each server proves the secret its
 * own way: GitHub signs the body (`X-Hub-Signature-256: sha256=<hex HMAC>`), Gitea and Forgejo too (`X-Gitea-Signature`
 * or `X-Forgejo-Signature`: the bare hex), Bitbucket as GitHub does (`X-Hub-Signature`), GitLab sends the secret
 * itself (`X-Gitlab-Token`).
 */

export type WebhookProvider = 'github' | 'gitlab' | 'gitea' | 'bitbucket';

export interface WebhookDelivery {
  provider: WebhookProvider;
  /** The event as the server names it (`push`, `Push Hook`, `repo:push`, `ping`…). */
  event: string;
  /** The body proves the secret. */
  verified: boolean;
  /** For a push: the branches it moved (`refs/heads/…`); undefined for any other event. */
  refs?: string[];
}

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The server that sent a delivery, or undefined when the headers are none of the four's. */
export function webhookProvider(headers: Headers): WebhookProvider | undefined {
  // Gitea and Forgejo also send GitHub's headers: their own are looked for first.
  if (header(headers, 'x-gitea-event') || header(headers, 'x-forgejo-event')) return 'gitea';
  if (header(headers, 'x-gitlab-event')) return 'gitlab';
  if (header(headers, 'x-github-event')) return 'github';
  if (header(headers, 'x-event-key')) return 'bitbucket';
  return undefined;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function signs(body: Buffer, secret: string, signature: string | undefined, prefix: string): boolean {
  if (!signature) return false;
  const expected = prefix + createHmac('sha256', secret).update(body).digest('hex');
  return sameText(signature.trim().toLowerCase(), expected);
}

/** Whether the delivery proves `secret`, as its server proves it. */
export function verifyWebhook(provider: WebhookProvider, headers: Headers, body: Buffer, secret: string): boolean {
  switch (provider) {
    case 'github':
      return signs(body, secret, header(headers, 'x-hub-signature-256'), 'sha256=');
    case 'gitea':
      return signs(body, secret, header(headers, 'x-gitea-signature') ?? header(headers, 'x-forgejo-signature'), '');
    case 'bitbucket':
      return signs(body, secret, header(headers, 'x-hub-signature'), 'sha256=');
    case 'gitlab': {
      const token = header(headers, 'x-gitlab-token');
      return token !== undefined && sameText(token, secret);
    }
  }
}

const PUSH_EVENTS: Record<WebhookProvider, string[]> = {
  github: ['push'],
  gitea: ['push'],
  gitlab: ['Push Hook'],
  // Bitbucket Cloud, then Bitbucket Data Center.
  bitbucket: ['repo:push', 'repo:refs_changed'],
};

function eventOf(provider: WebhookProvider, headers: Headers): string {
  const name = { github: 'x-github-event', gitea: 'x-gitea-event', gitlab: 'x-gitlab-event', bitbucket: 'x-event-key' }[provider];
  return header(headers, name) ?? (provider === 'gitea' ? header(headers, 'x-forgejo-event') ?? '' : '');
}

/** The JSON of a delivery: a JSON body, or GitHub's form encoding (`payload=<json>`). */
function payloadOf(body: Buffer, contentType: string | undefined): unknown {
  const text = body.toString('utf8');
  if (contentType?.includes('application/x-www-form-urlencoded')) return JSON.parse(new URLSearchParams(text).get('payload') ?? 'null');
  return JSON.parse(text);
}

/** The branches a push moved, from each server's payload. */
function pushedRefs(provider: WebhookProvider, payload: unknown): string[] {
  const p = (payload ?? {}) as {
    ref?: unknown;
    push?: { changes?: { new?: { type?: unknown; name?: unknown } | null }[] };
    changes?: { ref?: { id?: unknown; type?: unknown } }[];
  };
  if (provider !== 'bitbucket') return typeof p.ref === 'string' ? [p.ref] : [];
  const cloud = (p.push?.changes ?? []).flatMap((c) => (c.new?.type === 'branch' && typeof c.new.name === 'string' ? [`refs/heads/${c.new.name}`] : []));
  const server = (p.changes ?? []).flatMap((c) => (typeof c.ref?.id === 'string' && c.ref.id.startsWith('refs/heads/') ? [c.ref.id] : []));
  return [...cloud, ...server];
}

/**
 * Reads a delivery: undefined when it comes from none of the four servers. A verified push that cannot be read
 * as JSON is answered as an error by the caller (`refs` is then an empty list).
 */
export function readWebhook(headers: Headers, body: Buffer, secret: string): WebhookDelivery | undefined {
  const provider = webhookProvider(headers);
  if (!provider) return undefined;
  const event = eventOf(provider, headers);
  const verified = verifyWebhook(provider, headers, body, secret);
  if (!verified || !PUSH_EVENTS[provider].includes(event)) return { provider, event, verified };
  let payload: unknown;
  try {
    payload = payloadOf(body, header(headers, 'content-type'));
  } catch {
    return { provider, event, verified, refs: [] };
  }
  return { provider, event, verified, refs: pushedRefs(provider, payload) };
}
