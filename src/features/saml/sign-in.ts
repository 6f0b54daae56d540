import { hash, randomBytes } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { AppContext, RequestOrigin } from '../../platform/context.ts';
import { isoNow } from '../../platform/clock.ts';
import { normalizeEmail } from '../users/email.ts';
import { providerStatus } from './present.ts';
import { findOpenRequest, findProviderById, findTicket, finishTicket, insertRequest, purgeExpired, recordAssertion, saveTicket, useRequest, type SamlProviderRow } from './store.ts';
import { safeNextPath, signedInHome } from '../sso/landing.ts';
import { bindBrowser, isSameBrowser } from '../sso/browser-binding.ts';
import { signInThroughProvider, SsoSignInRefused, type VouchedPerson } from '../sso/provider-sign-in.ts';
import { serviceUrls } from './urls.ts';

/** Clock difference tolerated between the identity provider and us on NotBefore / NotOnOrAfter. */
export const CLOCK_SKEW_MS = 60_000;
/** How long a person has at the identity provider between our AuthnRequest and its response. */
export const REQUEST_LIFETIME_MS = 10 * 60_000;
/** Accepted assertion ids are kept at least this long (longer when the assertion says it is valid longer). */
const ASSERTION_ID_MEMORY_MS = 24 * 60 * 60_000;

/** How long the browser has between the ACS and its same-site step (a redirect: seconds in practice). */
const TICKET_LIFETIME_MS = 2 * 60_000;

/** A refusal shown to the browser as an error page: `status` 400 (a bad message) or 403 (not let in). */
export class SignInRefused extends SsoSignInRefused {
  constructor(status: 400 | 403 | 404, message: string) {
    super(status, message);
  }
}

/**
 * The AuthnRequest ids node-saml issues and checks (InResponseTo), kept in the database so any process can
 * receive the response. A request is answered once: `used` tells whether this validation is the one that
 * consumed it (node-saml removes the id when it accepts a response; two responses racing for one request
 * cannot both see themselves as the one that did).
 */
class RequestStore implements CacheProvider {
  used = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly providerId: string,
    private readonly relayState: string | null,
    private readonly binding: { browserHash: string; linkUserId: string | null } | null = null,
  ) {}

  async saveAsync(key: string, value: string) {
    const now = this.ctx.clock.now();
    await insertRequest(this.ctx.db, {
      id: key,
      provider_id: this.providerId,
      issued_at: value,
      relay_state: this.relayState,
      expires_at: new Date(now.getTime() + REQUEST_LIFETIME_MS).toISOString(),
      browser_hash: this.binding?.browserHash ?? null,
      link_user_id: this.binding?.linkUserId ?? null,
    });
    return { value, createdAt: now.getTime() };
  }

  async getAsync(key: string) {
    const row = await findOpenRequest(this.ctx.db, this.providerId, key, isoNow(this.ctx.clock));
    return row ? row.issued_at : null;
  }

  async removeAsync(key: string | null) {
    if (key === null) return null;
    if (await useRequest(this.ctx.db, this.providerId, key, isoNow(this.ctx.clock))) this.used = true;
    return key;
  }
}

function samlFor(ctx: AppContext, provider: SamlProviderRow, requests: CacheProvider): SAML {
  const urls = serviceUrls(ctx.config, provider.id);
  return new SAML({
    callbackUrl: urls.acsURL,
    entryPoint: provider.sso_url,
    issuer: urls.entityID,
    audience: urls.entityID,
    idpCert: provider.certificate,
    idpIssuer: provider.entity_id,
    // Either the whole response or its assertion must carry a valid signature by the provider's certificate.
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_LIFETIME_MS,
    cacheProvider: requests,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
  });
}

async function activeProvider(ctx: AppContext, providerId: string): Promise<SamlProviderRow> {
  const provider = await findProviderById(ctx.db, providerId);
  if (!provider) throw new SignInRefused(404, 'There is no such sign-in provider.');
  if (providerStatus(provider) !== 'active') throw new SignInRefused(400, 'This sign-in provider is not fully configured yet (entity ID, sign-in URL and certificate).');
  return provider;
}

/**
 * The identity provider's URL with our AuthnRequest (HTTP-Redirect binding); the request id is kept for
 * InResponseTo, with the browser's binding (its state cookie, `setCookie`) and, when `linkUserId` is given, the
 * signed-in person who asked to link this provider to their account.
 */
export async function startSignIn(
  ctx: AppContext,
  providerId: string,
  next: string | undefined,
  browser: { cookieHeader: string | undefined; linkUserId: string | null },
): Promise<{ url: string; setCookie: string }> {
  const provider = await activeProvider(ctx, providerId);
  const relayState = safeNextPath(ctx.config, next);
  const binding = bindBrowser(ctx.config, browser.cookieHeader);
  const store = new RequestStore(ctx, provider.id, relayState, { browserHash: binding.hash, linkUserId: browser.linkUserId });
  const url = await samlFor(ctx, provider, store).getAuthorizeUrlAsync(relayState ?? '', undefined, {});
  return { url, setCookie: binding.setCookie };
}

/** The first element named `local` (any namespace) under `parent`, direct children only. */
function child(parent: Element, local: string): Element | undefined {
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).localName === local) return node as Element;
  }
  return undefined;
}

/** Attribute values of the verified profile, whatever the identity provider called them. */
function attribute(profile: Profile, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = (profile as Record<string, unknown>)[name] ?? (profile.attributes as Record<string, unknown> | undefined)?.[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first.trim()) return first.trim();
  }
  return undefined;
}

/**
 * Verifies a response posted to a provider's ACS and signs the person in. node-saml checks the signature
 * with the provider's certificate, the audience (our entity ID), NotBefore/NotOnOrAfter with CLOCK_SKEW_MS,
 * and that InResponseTo names an open request of ours; we add what it leaves to us: the Destination is our
 * ACS URL, the request is consumed once, and the assertion's id was never accepted before. No session yet: the
 * ACS is a POST from the provider's page, which carries no SameSite=Lax cookie, so the browser cannot be told
 * apart from another site's auto-posted form here. The verified person waits under a one-time ticket, and the
 * browser is sent to `finishSignIn` (a top-level GET, which carries the state cookie of the browser that started
 * the sign-in). Answers that step's URL.
 */
export async function completeSignIn(ctx: AppContext, providerId: string, samlResponse: string): Promise<{ location: string }> {
  const provider = await activeProvider(ctx, providerId);
  const urls = serviceUrls(ctx.config, provider.id);
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  let root: Element | null = null;
  try {
    root = new DOMParser({ errorHandler: () => undefined }).parseFromString(xml, 'text/xml').documentElement;
  } catch {
    root = null;
  }
  if (!root || root.localName !== 'Response') throw new SignInRefused(400, 'The identity provider sent something that is not a SAML response.');
  if (root.getAttribute('Destination') !== urls.acsURL) throw new SignInRefused(400, `The SAML response is not addressed to this service: its Destination must be ${urls.acsURL}.`);
  const inResponseTo = root.getAttribute('InResponseTo');
  if (!inResponseTo) throw new SignInRefused(400, 'The SAML response does not answer a sign-in started here (no InResponseTo).');
  const request = await findOpenRequest(ctx.db, provider.id, inResponseTo, isoNow(ctx.clock));

  const requests = new RequestStore(ctx, provider.id, null);
  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(ctx, provider, requests).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw new SignInRefused(403, `The SAML response was refused: ${describe(error)}.`);
  }
  // node-saml consumes the request on most paths; where it does not (no InResponseTo in the subject), we do.
  const consumed = requests.used || (request !== undefined && (await useRequest(ctx.db, provider.id, inResponseTo, isoNow(ctx.clock))));
  if (!profile || !request || !consumed) throw new SignInRefused(403, 'The SAML response answers no open sign-in request of ours (unknown, expired or already answered).');

  // The verified assertion (not the envelope around it): its id, its recipient, how long it claims to be valid.
  const assertion = new DOMParser().parseFromString(profile.getAssertionXml?.() ?? '', 'text/xml').documentElement;
  const assertionId = assertion?.getAttribute('ID');
  if (!assertion || !assertionId) throw new SignInRefused(400, 'The SAML assertion has no ID.');
  const confirmation = child(assertion, 'Subject') && child(child(assertion, 'Subject')!, 'SubjectConfirmation');
  const data = confirmation && child(confirmation, 'SubjectConfirmationData');
  const recipient = data?.getAttribute('Recipient');
  if (recipient && recipient !== urls.acsURL) throw new SignInRefused(400, `The SAML assertion is meant for another recipient than ${urls.acsURL}.`);
  const conditions = child(assertion, 'Conditions');
  const notOnOrAfter = Date.parse(conditions?.getAttribute('NotOnOrAfter') ?? data?.getAttribute('NotOnOrAfter') ?? '');
  const now = ctx.clock.now();
  const remember = Math.max(ASSERTION_ID_MEMORY_MS, Number.isFinite(notOnOrAfter) ? notOnOrAfter - Date.now() + CLOCK_SKEW_MS : 0);

  const emailText = attribute(profile, 'email', 'mail', 'emailAddress', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress') ?? profile.nameID;
  let email: string;
  try {
    email = normalizeEmail(emailText ?? '');
  } catch {
    throw new SignInRefused(400, 'The SAML assertion names no e-mail address (NameID or an email attribute).');
  }
  const given = attribute(profile, 'firstName', 'givenName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname');
  const family = attribute(profile, 'lastName', 'surname', 'sn', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname');
  const displayName = attribute(profile, 'displayName', 'name') ?? ([given, family].filter(Boolean).join(' ') || undefined);

  const person: VouchedPerson = { subject: email, email, ...(displayName ? { displayName } : {}) };
  const ticket = randomBytes(32).toString('base64url');
  await ctx.db.transaction().execute(async (trx) => {
    await purgeExpired(trx, now.toISOString());
    if (!(await recordAssertion(trx, { provider_id: provider.id, assertion_id: assertionId, expires_at: new Date(now.getTime() + remember).toISOString() }))) {
      throw new SignInRefused(403, 'This SAML assertion was already used to sign in (a replay).');
    }
    await saveTicket(trx, provider.id, request.id, {
      ticket_hash: hash('sha256', ticket, 'hex'),
      verified_profile: JSON.stringify(person),
      expires_at: new Date(now.getTime() + TICKET_LIFETIME_MS).toISOString(),
    });
  });
  return { location: `${urls.finishURL}?ticket=${ticket}` };
}

/**
 * The browser's same-site step after the ACS: the ticket's sign-in must have been started by this browser (its
 * state cookie), then the person is signed in by the account rule (sso/provider-sign-in.ts). Returns the cookies
 * of the new session and where to send the browser.
 */
export async function finishSignIn(ctx: AppContext, providerId: string, ticket: string, cookieHeader: string | undefined, origin: RequestOrigin): Promise<{ setCookies: string[]; location: string }> {
  const provider = await activeProvider(ctx, providerId);
  const now = isoNow(ctx.clock);
  const request = await findTicket(ctx.db, provider.id, hash('sha256', ticket, 'hex'), now);
  if (!request || !request.verified_profile) throw new SignInRefused(403, 'This sign-in step is unknown, expired or was already taken. Sign in again.');
  if (!isSameBrowser(request.browser_hash, cookieHeader)) {
    throw new SignInRefused(403, 'This sign-in was started in another browser: a sign-in opens a session only in the browser that started it. Sign in again from here.');
  }
  if (!(await finishTicket(ctx.db, request.id, now))) throw new SignInRefused(403, 'This sign-in step was already taken. Sign in again.');
  const person = JSON.parse(request.verified_profile) as VouchedPerson;
  const urls = serviceUrls(ctx.config, provider.id);
  const { setCookies } = await signInThroughProvider(
    ctx,
    { kind: 'saml', id: provider.id, label: provider.label, organizationId: provider.organization_id, defaultRole: provider.default_role, defaultTeamId: provider.default_team_id, startUrl: urls.startURL },
    person,
    { linkUserId: request.link_user_id, origin },
  );
  return { setCookies, location: request.relay_state ?? signedInHome(ctx.config) };
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\.$/, '');
}

/** Our SAML metadata for a provider: what an identity provider imports to know us. */
export async function serviceMetadata(ctx: AppContext, providerId: string): Promise<string> {
  const provider = await findProviderById(ctx.db, providerId);
  if (!provider) throw new SignInRefused(404, 'There is no such sign-in provider.');
  const urls = serviceUrls(ctx.config, provider.id);
  const saml = new SAML({ callbackUrl: urls.acsURL, issuer: urls.entityID, idpCert: provider.certificate || 'none', identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress' });
  return saml.generateServiceProviderMetadata(null);
}
