import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

export interface TestOidcProvider {
  /** The issuer: `http://127.0.0.1:<port>`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the redirect URI of a provider configured in Quire (known only once it is created). */
  allowRedirect(uri: string): void;
  /** Who signs in at the next authorization: the claims the ID token will carry. */
  signInAs(person: { email: string; name?: string; emailVerified?: boolean }): void;
  /**
   * Plays the browser at the provider: follows Quire's authorization URL through the interaction (the person
   * signed in as set by `signInAs`, consent given) and returns the redirect back to Quire, with its code and state.
   */
  authorize(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package, the certified Node implementation) on a random
 * port of 127.0.0.1, with one confidential client. Its login and consent screens are replaced by a handler that
 * signs in whoever `signInAs` named, so a test drives the whole authorization code flow without a browser.
 */
export async function startOidcProvider(): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const clientId = 'quire-test-client';
  const clientSecret = 'a-client-secret-of-the-test-provider';
  const redirectUris: string[] = [];
  let person: { email: string; name?: string; emailVerified?: boolean } = { email: 'nobody@example.com' };
  const accounts = new Map<string, typeof person>();
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  // oidc-provider validates its clients when built, and a client needs a redirect URI: it is (re)built as
  // redirect URIs are registered.
  const build = () =>
    new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [...redirectUris], grant_types: ['authorization_code'], response_types: ['code'] }],
    jwks: { keys: [{ ...key, kid: 'test', use: 'sig', alg: 'RS256' } as never] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['test-cookie-key'] },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: account.email, email_verified: account.emailVerified ?? true, ...(account.name ? { name: account.name } : {}) }),
      };
    },
  });
  let provider: Provider | undefined;
  server.on('request', (req, res) => {
    if (!provider) {
      res.statusCode = 503;
      return void res.end('no redirect URI registered yet');
    }
    const match = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!match) return void provider.callback()(req, res);
    const idp = provider;
    void (async () => {
      const details = await idp.interactionDetails(req, res);
      const accountId = `acct-${person.email}`;
      accounts.set(accountId, person);
      const grant = new idp.Grant({ accountId, clientId: details.params.client_id as string });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await idp.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    allowRedirect(uri) {
      redirectUris.push(uri);
      provider = build();
    },
    signInAs(next) {
      person = next;
    },
    async authorize(authorizationUrl) {
      const jar = new Map<string, string>();
      let url = new URL(authorizationUrl);
      for (let hop = 0; hop < 10; hop += 1) {
        if (url.origin !== issuer) return url;
        const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const set of res.headers.getSetCookie()) {
          const [pair] = set.split(';');
          const eq = pair!.indexOf('=');
          jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`The provider answered ${res.status} without a redirect: ${await res.text()}`);
        url = new URL(location, url);
      }
      throw new Error('Too many redirects at the provider');
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
