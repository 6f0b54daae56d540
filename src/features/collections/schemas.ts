import { Type } from 'typebox';
import { ListQuery } from '../../platform/schemas.ts';
import { DefaultLevel } from '../access/schemas.ts';

export const CollectionTitle = Type.String({ maxLength: 50 });
export const CollectionDescription = Type.String({ maxLength: 100 });

export const Collection = Type.Object(
  {
    object: Type.Literal('collection'),
    id: Type.String(),
    title: Type.String(),
    description: Type.Optional(Type.String()),
    organization: Type.String(),
    parent: Type.Optional(Type.String()),
    defaultLevel: DefaultLevel,
    urls: Type.Object({ location: Type.String({ format: 'uri' }), app: Type.String({ format: 'uri' }) }),
    permissions: Type.Object({ view: Type.Boolean(), admin: Type.Boolean(), viewInviteLinks: Type.Boolean(), create: Type.Boolean() }),
  },
  { $id: 'Collection' },
);

export const CreateCollectionBody = Type.Object({
  title: Type.Optional(CollectionTitle),
  parent: Type.Optional(Type.String({ minLength: 1, description: 'Id of a parent collection' })),
});

export const UpdateCollectionBody = Type.Object({
  title: Type.Optional(CollectionTitle),
  description: Type.Optional(CollectionDescription),
  defaultLevel: Type.Optional(DefaultLevel),
});

export const ListCollectionsQuery = Type.Object({
  ...ListQuery.properties,
  nested: Type.Optional(Type.Boolean({ default: true, description: 'If true, nested collections are listed too' })),
});
