import { Type } from 'typebox';

export const ContentPointer = Type.Union([
  Type.Object({ type: Type.Literal('space'), space: Type.String({ minLength: 1 }) }),
  Type.Object({ type: Type.Literal('collection'), collection: Type.String({ minLength: 1 }) }),
]);

export const ContentPosition = Type.Object(
  { before: Type.Optional(ContentPointer), after: Type.Optional(ContentPointer) },
  { description: 'Where to put the item among its siblings; at the end when absent' },
);

export const MoveBody = Type.Object(
  {
    parent: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()], { description: 'Parent collection id; null for the top level' })),
    position: Type.Optional(ContentPosition),
  },
  { minProperties: 1 },
);

export const TransferBody = Type.Object({
  organization: Type.String({ minLength: 1, description: 'Id of the target organization' }),
});
