import { Type } from 'typebox';
import { Timestamp } from '../../platform/schemas.ts';
import { RoleOrGuest } from '../access/schemas.ts';
import { Team } from '../teams/schemas.ts';

const Label = Type.String({ minLength: 1, maxLength: 30, description: 'Name of the provider shown on the sign-in page' });
const Issuer = Type.String({ format: 'uri', maxLength: 2048, description: "The provider's issuer URL (its discovery document is at /.well-known/openid-configuration under it)" });
const ClientId = Type.String({ minLength: 1, maxLength: 500, description: 'The client ID the provider gave this server' });
const DefaultTeam = Type.String({ maxLength: 200, description: 'A team of the organization that people signing in for the first time join ("" for none)' });
const ClientSecret = Type.String({ minLength: 1, maxLength: 2000, description: 'The client secret the provider gave this server (never shown again)' });

export const OIDCProvider = Type.Object({
  object: Type.Literal('oidc-provider'),
  id: Type.String(),
  label: Type.String(),
  issuer: Type.String({ format: 'uri' }),
  clientId: Type.String(),
  defaultRole: RoleOrGuest,
  defaultTeam: Type.Optional(Team),
  createdAt: Timestamp,
  service: Type.Object({
    redirectURL: Type.String({ format: 'uri', description: 'The redirect URI to register with the provider' }),
    startURL: Type.String({ format: 'uri', description: 'Where a browser starts signing in with this provider' }),
  }),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});

export const CreateOIDCProviderBody = Type.Object({
  label: Label,
  issuer: Issuer,
  clientId: ClientId,
  clientSecret: ClientSecret,
  defaultRole: Type.Optional(RoleOrGuest),
  defaultTeam: Type.Optional(DefaultTeam),
});

export const UpdateOIDCProviderBody = Type.Object({
  label: Type.Optional(Label),
  issuer: Type.Optional(Issuer),
  clientId: Type.Optional(ClientId),
  clientSecret: Type.Optional(ClientSecret),
  defaultRole: Type.Optional(RoleOrGuest),
  defaultTeam: Type.Optional(DefaultTeam),
});

export const OIDCProviderParams = Type.Object({ organizationId: Type.String({ minLength: 1 }), oidcProviderId: Type.String({ minLength: 1 }) });

/** The browser routes of sign-in, outside the API. */
export const ProviderIdParams = Type.Object({ providerId: Type.String({ minLength: 1, maxLength: 100 }) });
export const StartQuery = Type.Object({
  returnTo: Type.Optional(Type.String({ maxLength: 2000, description: 'A path on this server to go to once signed in' })),
  next: Type.Optional(Type.String({ maxLength: 2000, description: 'The same as `returnTo`' })),
  link: Type.Optional(Type.Literal('1', { description: 'Link this provider to the account signed in with a password in this browser' })),
});
export const CallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4000 })),
    state: Type.Optional(Type.String({ maxLength: 500 })),
    error: Type.Optional(Type.String({ maxLength: 500 })),
    error_description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: true },
);
