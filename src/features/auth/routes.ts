import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../platform/app-type.ts';
import { callerOf } from '../../platform/auth.ts';
import { forbidden, unauthorized } from '../../platform/errors.ts';
import { errors, NoContent } from '../../platform/schemas.ts';
import { clearedCookies, sessionFromCookies } from '../sessions/service.ts';
import { samlSignInButtons } from '../saml/service.ts';
import { oidcSignInButtons } from '../oidc/service.ts';
import { describeLink } from './links.ts';
import { listOwnIdentities, unlinkOwnIdentity } from '../sso/identities.ts';
import { describeInviteLink } from '../organization-invites/service.ts';
import {
  ChangePasswordBody,
  CurrentSession,
  EmailVerificationSent,
  IdentityIdParams,
  IdentityList,
  Invitation,
  InvitationBody,
  InviteLinkInfo,
  InviteLinkParams,
  LinkInfo,
  LinkTokenParams,
  PasswordResetBody,
  ProvidersQuery,
  SessionIdParams,
  SessionList,
  SignedIn,
  SignInBody,
  SignInProviders,
  SignUpBody,
  UseLinkBody,
} from './schemas.ts';
import {
  changePassword,
  describeSession,
  requestEmailVerification,
  inviteWithLink,
  listOwnSessions,
  requestPasswordReset,
  revokeOwnSessionById,
  signInWithPassword,
  signOut,
  signUpWithInvite,
  useSignInLink,
  type Client,
} from './service.ts';
import { signInThrottle } from './sign-in-throttle.ts';

const tags = ['auth'];
const documentation = { 'x-quire-extension': true };
const open = { public: true };

function clientOf(request: FastifyRequest): Client {
  const agent = request.headers['user-agent'];
  return { address: request.ip, userAgent: typeof agent === 'string' ? agent : undefined };
}

/**
 * A form of another site must not sign a browser in to an account of the attacker's (login CSRF): requests
 * that open a session without one yet are refused when their Origin names another site.
 */
function assertOwnOrigin(app: App, request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== 'null' && origin !== new URL(app.ctx.config.publicUrl).origin) {
    throw forbidden(`Signing in is only possible from ${new URL(app.ctx.config.publicUrl).origin}`);
  }
}

function withCookies(reply: FastifyReply, setCookies: string[]): FastifyReply {
  return reply.header('set-cookie', setCookies).header('cache-control', 'no-store');
}

/**
 * Signing in to the web app (features/sessions holds the cookies): passwords, one-time links, the caller's
 * sessions, the SSO buttons, and invitations with a link. The official API has no operation for these.
 */
export async function authRoutes(app: App) {
  const throttle = signInThrottle(app.ctx.config.redisUrl, (error) => app.log.warn({ err: error }, 'Redis for the sign-in throttle is unavailable; this process counts alone'));
  app.addHook('onClose', () => throttle.close());

  app.post(
    '/auth/sign-in',
    {
      config: open,
      schema: {
        operationId: 'signIn',
        ...documentation,
        tags,
        summary: 'Sign in with an e-mail and a password (sets the session and CSRF cookies)',
        body: SignInBody,
        response: { 200: SignedIn, ...errors(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      assertOwnOrigin(app, request);
      const { body, setCookies } = await signInWithPassword(app.ctx, throttle, request.body, clientOf(request));
      return withCookies(reply, setCookies).send(body);
    },
  );

  app.post(
    '/auth/sign-out',
    { schema: { operationId: 'signOut', ...documentation, tags, summary: 'Sign out: ends this session and clears its cookies', response: { 204: NoContent, ...errors(401, 403) } } },
    async (request, reply) => {
      await signOut(app.ctx, callerOf(request));
      return withCookies(reply, clearedCookies(app.ctx)).status(204).send();
    },
  );

  app.get(
    '/auth/session',
    {
      config: open,
      schema: { operationId: 'getSession', ...documentation, tags, summary: 'The signed-in person, their session and its CSRF token', response: { 200: CurrentSession, ...errors(401) } },
    },
    async (request, reply) => {
      const browser = await sessionFromCookies(app.ctx, request.headers.cookie);
      if (!browser) throw unauthorized('You are not signed in');
      return reply.header('cache-control', 'no-store').send(await describeSession(app.ctx, browser));
    },
  );

  app.get(
    '/auth/sessions',
    { schema: { operationId: 'listSessions', ...documentation, tags, summary: 'Your live sessions (signed in on this and other devices)', response: { 200: SessionList, ...errors(401, 403) } } },
    async (request) => listOwnSessions(app.ctx, callerOf(request)),
  );

  app.delete(
    '/auth/sessions/:sessionId',
    {
      schema: {
        operationId: 'revokeSession',
        ...documentation,
        tags,
        summary: 'Sign out one of your sessions',
        params: SessionIdParams,
        response: { 204: NoContent, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await revokeOwnSessionById(app.ctx, callerOf(request), request.params.sessionId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/auth/links/:token',
    {
      config: open,
      schema: { operationId: 'getSignInLink', ...documentation, tags, summary: 'What a one-time link is for', params: LinkTokenParams, response: { 200: LinkInfo, ...errors(404) } },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await describeLink(app.ctx, request.params.token)),
  );

  app.post(
    '/auth/links/:token',
    {
      config: open,
      schema: {
        operationId: 'useSignInLink',
        ...documentation,
        tags,
        summary: 'Set your password with a one-time link and sign in (the link is then used)',
        params: LinkTokenParams,
        body: UseLinkBody,
        response: { 200: SignedIn, ...errors(400, 403, 404) },
      },
    },
    async (request, reply) => {
      assertOwnOrigin(app, request);
      const { body, setCookies } = await useSignInLink(app.ctx, request.params.token, request.body, clientOf(request));
      return withCookies(reply, setCookies).send(body);
    },
  );

  app.post(
    '/auth/password-reset',
    {
      config: open,
      schema: {
        operationId: 'requestPasswordReset',
        ...documentation,
        tags,
        summary: 'Mail a password reset link to an e-mail address (the answer is the same whether it is known)',
        body: PasswordResetBody,
        response: { 204: NoContent, ...errors(400, 429) },
      },
    },
    async (request, reply) => {
      await requestPasswordReset(app.ctx, throttle, request.body, clientOf(request));
      return reply.status(204).send();
    },
  );

  app.put(
    '/auth/password',
    {
      schema: {
        operationId: 'changePassword',
        ...documentation,
        tags,
        summary: 'Change your password (your other sessions end)',
        body: ChangePasswordBody,
        response: { 204: NoContent, ...errors(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      await changePassword(app.ctx, throttle, callerOf(request), request.body, clientOf(request));
      return reply.status(204).send();
    },
  );

  app.get(
    '/auth/providers',
    {
      config: open,
      schema: {
        operationId: 'listSignInProviders',
        ...documentation,
        tags,
        summary: 'The single sign-on buttons of the sign-in page (SAML and OpenID Connect)',
        querystring: ProvidersQuery,
        response: { 200: SignInProviders, ...errors(400) },
      },
    },
    async (request) => {
      const [saml, oidc] = await Promise.all([samlSignInButtons(app.ctx, request.query.organizationId), oidcSignInButtons(app.ctx, request.query.organizationId)]);
      return { items: [...saml, ...oidc] };
    },
  );

  app.get(
    '/auth/invite-links/:organizationId/:inviteId',
    {
      config: open,
      schema: {
        operationId: 'getInviteLinkForJoining',
        ...documentation,
        tags,
        summary: 'What an organization invite link is for (its organization and role), for whoever holds it',
        params: InviteLinkParams,
        response: { 200: InviteLinkInfo, ...errors(404) },
      },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await describeInviteLink(app.ctx, request.params.organizationId, request.params.inviteId)),
  );

  app.post(
    '/auth/invite-links/:organizationId/:inviteId/sign-up',
    {
      config: open,
      schema: {
        operationId: 'signUpWithInviteLink',
        ...documentation,
        tags,
        summary: 'Create an account with an organization invite link: it joins with the link\'s role and is signed in (people with an account sign in, then joinOrganizationWithInvite)',
        params: InviteLinkParams,
        body: SignUpBody,
        response: { 201: SignedIn, ...errors(400, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      assertOwnOrigin(app, request);
      const { body, setCookies } = await signUpWithInvite(app.ctx, throttle, request.params, request.body, clientOf(request));
      return withCookies(reply, setCookies).status(201).send(body);
    },
  );

  app.post(
    '/auth/email-verification',
    {
      schema: {
        operationId: 'requestEmailVerification',
        ...documentation,
        tags,
        summary: 'Mail yourself a link that proves your e-mail address (invitations sent to it wait for the proof)',
        response: { 202: EmailVerificationSent, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(202).send(await requestEmailVerification(app.ctx, callerOf(request))),
  );

  app.get(
    '/auth/identities',
    {
      schema: {
        operationId: 'listSignInIdentities',
        ...documentation,
        tags,
        summary: 'The identity providers that may sign you in (they created your account, you linked them, or your domain is verified)',
        response: { 200: IdentityList, ...errors(401, 403) },
      },
    },
    async (request) => listOwnIdentities(app.ctx, callerOf(request)),
  );

  app.delete(
    '/auth/identities/:identityId',
    {
      schema: {
        operationId: 'unlinkSignInIdentity',
        ...documentation,
        tags,
        summary: 'Unlink an identity provider from your account: it signs you in no more',
        params: IdentityIdParams,
        response: { 204: NoContent, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await unlinkOwnIdentity(app.ctx, callerOf(request), request.params.identityId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/auth/invitations',
    {
      schema: {
        operationId: 'createInvitation',
        ...documentation,
        tags,
        summary: 'Invite a person by e-mail with a role, and get the one-time link that lets them set a password',
        body: InvitationBody,
        response: { 201: Invitation, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => reply.status(201).send(await inviteWithLink(app.ctx, callerOf(request), request.body)),
  );
}
