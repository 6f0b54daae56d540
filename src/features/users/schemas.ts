import { Type } from 'typebox';

export const User = Type.Object(
  {
    object: Type.Literal('user'),
    id: Type.String(),
    displayName: Type.String(),
    email: Type.Optional(Type.String()),
    photoURL: Type.Optional(Type.String()),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { $id: 'User' },
);

export const UserIdParams = Type.Object({ userId: Type.String({ minLength: 1 }) });
