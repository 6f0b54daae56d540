import { Type } from 'typebox';
import { IntegrationBlock } from '../integrations/schemas.ts';

const Base = { title: Type.String(), site: Type.String(), icon: Type.Optional(Type.String()) };

/** The official `Embed`: a link card, an oEmbed HTML snippet, or a block of an installed integration. */
export const Embed = Type.Union([
  Type.Object({ ...Base, type: Type.Literal('link') }),
  Type.Object({ ...Base, type: Type.Literal('rich'), html: Type.String() }),
  Type.Object({ ...Base, type: Type.Literal('integration'), integration: Type.String(), block: IntegrationBlock }),
]);

export const EmbedQuery = Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048, description: 'URL to resolve' }) });
export const SpaceEmbedParams = Type.Object({ spaceId: Type.String({ minLength: 1 }) });
