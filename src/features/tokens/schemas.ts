import { Type } from 'typebox';
import { Timestamp } from '../../platform/schemas.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const PersonalToken = Type.Object({
  id: Type.String(),
  label: Type.String(),
  createdAt: Timestamp,
  lastUsedAt: Nullable(Timestamp),
  expiresAt: Nullable(Timestamp),
});

export const PersonalTokenList = Type.Object({ items: Type.Array(PersonalToken) });

export const CreatePersonalTokenBody = Type.Object({
  label: Type.String({ minLength: 1, maxLength: 100, description: 'What the token is for, to recognise it in the list' }),
  expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'When it stops working; absent: until revoked' })),
});

export const CreatedPersonalToken = Type.Object({
  id: Type.String(),
  label: Type.String(),
  createdAt: Timestamp,
  expiresAt: Nullable(Timestamp),
  token: Type.String({ description: 'The value for `Authorization: Bearer`, shown only in this answer' }),
});

export const TokenIdParams = Type.Object({ tokenId: Type.String({ minLength: 1, maxLength: 100 }) });
