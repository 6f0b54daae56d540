import { Type } from 'typebox';
import { Timestamp } from '../../platform/schemas.ts';
import { RoleOrGuest } from '../access/schemas.ts';
import { Team } from '../teams/schemas.ts';

const Label = Type.String({ minLength: 1, maxLength: 30, description: 'Name of the provider shown on the sign-in page' });
const EntityID = Type.String({ maxLength: 1024, description: "The identity provider's entity ID (the Issuer of its responses)" });
const Certificate = Type.String({ maxLength: 10000, description: "The identity provider's signing certificate (PEM X.509)" });
const Url = Type.String({ format: 'uri', maxLength: 2048 });

export const SAMLProvider = Type.Object(
  {
    object: Type.Literal('saml-provider'),
    id: Type.String(),
    label: Type.String(),
    ssoURL: Type.String({ format: 'uri', description: "The identity provider's sign-in URL (`about:blank` while the provider is pending)" }),
    entityID: Type.String(),
    certificate: Type.String(),
    defaultTeam: Type.Optional(Team),
    defaultRole: RoleOrGuest,
    createdAt: Timestamp,
    status: Type.Union([Type.Literal('active'), Type.Literal('pending')], {
      description: '`active` once its entity ID, sign-in URL and certificate are set; `pending` until then',
    }),
    service: Type.Object({
      acsURL: Type.String({ format: 'uri', description: 'Where the identity provider posts its responses (Assertion Consumer Service)' }),
      startURL: Type.String({ format: 'uri', description: 'Where a browser starts signing in with this provider' }),
      entityID: Type.String({ description: 'Our entity ID for this provider (the audience of its assertions)' }),
    }),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { $id: 'SAMLProvider' },
);

export const SSOProviderLogin = Type.Object({ id: Type.String(), label: Type.String(), startURL: Type.String({ format: 'uri' }) });

export const SAMLProviderParams = Type.Object({ organizationId: Type.String({ minLength: 1 }), samlProviderId: Type.String({ minLength: 1 }) });

const ProviderFields = {
  entityID: Type.Optional(EntityID),
  certificate: Type.Optional(Certificate),
  ssoURL: Type.Optional(Url),
  defaultTeam: Type.Optional(Type.String({ maxLength: 200, description: 'A team of the organization that people signing in for the first time join' })),
  defaultRole: Type.Optional(RoleOrGuest),
};

export const CreateSAMLProviderBody = Type.Object({ label: Label, ...ProviderFields });
export const UpdateSAMLProviderBody = Type.Object({ label: Type.Optional(Label), ...ProviderFields });

/** The browser routes of sign-in, outside the API. */
export const ProviderIdParams = Type.Object({ providerId: Type.String({ minLength: 1, maxLength: 100 }) });
export const StartQuery = Type.Object({
  next: Type.Optional(Type.String({ maxLength: 2000, description: 'A path on this server to go to once signed in' })),
  returnTo: Type.Optional(Type.String({ maxLength: 2000, description: 'The same as `next` (the name the web app uses)' })),
  link: Type.Optional(Type.Literal('1', { description: 'Link this provider to the account signed in with a password in this browser' })),
});
export const FinishQuery = Type.Object({ ticket: Type.String({ minLength: 20, maxLength: 200 }) });
export const AcsBody = Type.Object({
  SAMLResponse: Type.String({ minLength: 1, maxLength: 1_000_000 }),
  RelayState: Type.Optional(Type.String({ maxLength: 4000 })),
});
