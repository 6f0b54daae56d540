import { Type } from 'typebox';
import { Timestamp } from '../../platform/schemas.ts';
import { RoleOrGuest } from '../access/schemas.ts';
import { User } from '../users/schemas.ts';
import { MAX_PASSWORD_LENGTH } from './passwords.ts';

const Email = Type.String({ minLength: 1, maxLength: 320, description: 'An e-mail address' });
// The length rule (8 at least) is checked by the service, which names the field: one message for every route.
const Password = Type.String({ maxLength: MAX_PASSWORD_LENGTH });
const SessionMethod = Type.Union([Type.Literal('password'), Type.Literal('link'), Type.Literal('saml'), Type.Literal('oidc')], {
  description: 'How the session was opened',
});

export const SignInBody = Type.Object({ email: Email, password: Password });

/** What a sign-in answers (with the session and CSRF cookies): the person and the token for X-CSRF-Token. */
export const SignedIn = Type.Object({
  user: User,
  csrfToken: Type.String({ description: 'The value to send in X-CSRF-Token on requests that change something (also in the quire_csrf cookie)' }),
});

export const CurrentSession = Type.Object({
  user: User,
  csrfToken: Type.String(),
  session: Type.Object({
    id: Type.String(),
    createdAt: Timestamp,
    expiresAt: Timestamp,
    method: SessionMethod,
    organizationId: Type.Union([Type.String(), Type.Null()], { description: 'The organization whose identity provider opened the session; null for a password or a link' }),
  }),
});

export const SessionList = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      createdAt: Timestamp,
      lastSeenAt: Timestamp,
      userAgent: Type.Union([Type.String(), Type.Null()]),
      method: SessionMethod,
      current: Type.Boolean({ description: 'The session this request came with' }),
    }),
  ),
});

export const SessionIdParams = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 100 }) });
export const LinkTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const LinkInfo = Type.Object({
  kind: Type.Union([Type.Literal('invite'), Type.Literal('reset'), Type.Literal('first-start'), Type.Literal('verify')]),
  email: Type.String(),
  organization: Type.Optional(Type.Object({ id: Type.String(), title: Type.String() })),
  role: Type.Optional(RoleOrGuest),
});

export const UseLinkBody = Type.Object({
  password: Password,
  displayName: Type.Optional(Type.String({ maxLength: 200, description: 'The name others see; kept as it is when absent' })),
});

export const PasswordResetBody = Type.Object({ email: Email });
export const ChangePasswordBody = Type.Object({ currentPassword: Password, newPassword: Password });

export const SignInProviders = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.Union([Type.Literal('saml'), Type.Literal('oidc')]),
      label: Type.String(),
      organizationId: Type.String(),
      signInUrl: Type.String({ format: 'uri', description: 'Where the browser goes to sign in; add ?returnTo=/app/... to come back to a page' }),
    }),
  ),
});
export const ProvidersQuery = Type.Object({ organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) });

export const InvitationBody = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  email: Email,
  role: RoleOrGuest,
});

export const Invitation = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  role: RoleOrGuest,
  emailed: Type.Boolean({ description: 'Whether the link was handed to the mail server (SMTP_URL)' }),
  url: Type.Optional(Type.String({ format: 'uri', description: 'The one-time link to give the person; absent when they already have an account to sign in with' })),
  pending: Type.Optional(
    Type.Boolean({ description: 'The address has an account whose owner has not proven it yet: the person becomes a member once they open the link (or one mailed to them)' }),
  ),
  expiresAt: Type.Optional(Timestamp),
});

export const InviteLinkParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  inviteId: Type.String({ minLength: 1, maxLength: 100 }),
});

/** What an organization's invite link is for, shown before the person signs in. */
export const InviteLinkInfo = Type.Object({
  organization: Type.Object({ id: Type.String(), title: Type.String() }),
  role: RoleOrGuest,
});

export const SignUpBody = Type.Object({
  email: Email,
  password: Password,
  displayName: Type.Optional(Type.String({ maxLength: 200, description: 'The name others see; the start of the e-mail when absent' })),
});

export const EmailVerificationSent = Type.Object({ emailed: Type.Boolean({ description: 'Whether the mail server took the mail' }) });

export const IdentityIdParams = Type.Object({ identityId: Type.String({ minLength: 1, maxLength: 100 }) });

export const IdentityList = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      organizationId: Type.String(),
      providerId: Type.String(),
      kind: Type.Union([Type.Literal('saml'), Type.Literal('oidc')]),
      origin: Type.Union([Type.Literal('created'), Type.Literal('linked'), Type.Literal('domain')]),
      email: Type.Optional(Type.String()),
      createdAt: Timestamp,
      lastUsedAt: Type.Optional(Timestamp),
    }),
  ),
});
