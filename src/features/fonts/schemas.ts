import { Type } from 'typebox';
import { OrganizationIdParams } from '../../platform/schemas.ts';

// The official CustomizationFontDefinition and the bodies of createCustomFont / updateCustomFont (0.202.0).
export const FontFamily = Type.String({ minLength: 1, maxLength: 50, description: 'The font-family name used in CSS' });
export const FontWeight = Type.Integer({ minimum: 1, maximum: 1000, description: '400 regular, 700 bold, ...' });
const StorageFileKey = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'A WOFF or WOFF2 file stored on this server: the id of its upload (uploadSpaceFile) or its download URL',
});

export const FontParams = Type.Object({ ...OrganizationIdParams.properties, fontId: Type.String({ minLength: 1 }) });

export const CustomFont = Type.Object({
  id: Type.String(),
  custom: Type.Boolean(),
  fontFamily: Type.String(),
  fontFaces: Type.Array(
    Type.Object({
      weight: Type.Integer(),
      sources: Type.Array(Type.Object({ url: Type.String({ format: 'uri' }), format: Type.Optional(Type.Union([Type.Literal('woff2'), Type.Literal('woff')])) })),
    }),
  ),
  permissions: Type.Object({ edit: Type.Boolean() }),
});

export const CustomFontList = Type.Object({ count: Type.Number(), items: Type.Array(CustomFont) });

export const CreateFontBody = Type.Object({
  fontFamily: FontFamily,
  fontFaces: Type.Array(Type.Object({ weight: FontWeight, storageKey: StorageFileKey }), {
    minItems: 1,
    maxItems: 20,
    description: 'One face per weight; weight 400 (regular) is required',
  }),
});

export const UpdateFontBody = Type.Object({
  fontFamily: Type.Optional(FontFamily),
  fontFaces: Type.Optional(
    Type.Array(Type.Object({ weight: FontWeight, storageKey: Type.Union([StorageFileKey, Type.Null()]) }), {
      maxItems: 20,
      description: 'The faces to set, by weight; a null storageKey removes that weight',
    }),
  ),
});
