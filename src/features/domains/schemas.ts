import { Type } from 'typebox';

export const VerifiedDomain = Type.Object({
  object: Type.Literal('organization-domain'),
  id: Type.String(),
  domain: Type.String({ description: 'The domain of e-mail addresses, e.g. example.com' }),
  verified: Type.Boolean(),
  verifiedAt: Type.Optional(Type.String({ format: 'date-time' })),
  txtRecord: Type.Object(
    { name: Type.String(), value: Type.String() },
    { description: 'The DNS TXT record that proves the organization holds the domain' },
  ),
  mailedTo: Type.Optional(Type.String({ description: 'The address a verification link was last mailed to' })),
});

export const DomainList = Type.Object({ items: Type.Array(VerifiedDomain) });

export const DomainParams = Type.Object({ organizationId: Type.String(), domainId: Type.String() });

export const AddDomainBody = Type.Object({ domain: Type.String({ minLength: 3, maxLength: 253 }) }, { additionalProperties: false });

// One object, not a union of the two methods: the server's Ajv removes properties a union's first branch does
// not list before trying the next (it stripped `email`, and no mailed link could be asked for).
export const VerifyDomainBody = Type.Object(
  {
    method: Type.Union([Type.Literal('dns'), Type.Literal('email')], { description: 'dns: check the TXT record; email: mail a link to `email`' }),
    email: Type.Optional(Type.String({ maxLength: 320, description: 'With method email: an address of the domain that receives the verification link' })),
  },
  { additionalProperties: false },
);

export const MailTokenParams = Type.Object({ token: Type.String({ minLength: 20, maxLength: 200 }) });
