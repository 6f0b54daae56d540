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

/** The official body of updateUserById: at least one of the two. */
export const UpdateUserBody = Type.Object(
  {
    displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Full name for the user' })),
    photoURL: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'URL of the profile picture (http or https)' })),
  },
  { minProperties: 1, additionalProperties: false },
);
