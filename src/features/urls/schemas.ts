import { Type, type Static } from 'typebox';
import { ChangeRequest } from '../change-requests/schemas.ts';
import { Collection } from '../collections/schemas.ts';
import { RevisionPage } from '../content/schemas.ts';
import { Space } from '../spaces/schemas.ts';

// The official shapes of the `urls` operations (0.202.0).
const Url = Type.String({ minLength: 1, maxLength: 4096, description: 'An absolute URL' });

export const ContentByUrlQuery = Type.Object({ url: Url });

export const ContentByUrl = Type.Union([
  Type.Object({ collection: Collection }),
  Type.Object({ space: Space, changeRequest: Type.Optional(ChangeRequest), page: Type.Optional(RevisionPage) }),
]);
export type ContentByUrl = Static<typeof ContentByUrl>;

export const PublishedContentByUrlQuery = Type.Object({
  url: Url,
  visitorAuthToken: Type.Optional(Type.String({ description: 'JWT token generated for a authenticated access session' })),
  redirectOnError: Type.Optional(Type.Boolean({ default: false })),
});

/** The official PlainObject: JSON objects whose leaves are strings, booleans and numbers. */
const PlainObject = Type.Record(Type.String(), Type.Unknown());

export const ResolvePublishedContentBody = Type.Object({
  url: Url,
  redirectOnError: Type.Optional(Type.Boolean({ default: false })),
  visitor: Type.Optional(
    Type.Object({
      type: Type.Optional(Type.Union([Type.Literal('human'), Type.Literal('agent')])),
      jwtToken: Type.Optional(Type.String()),
      unsignedClaims: Type.Optional(PlainObject),
    }),
  ),
});

export const PublishedContentRedirect = Type.Union([
  Type.Object({ target: Type.Union([Type.Literal('application'), Type.Literal('content')]), redirect: Type.String() }),
  Type.Object({ target: Type.Literal('external'), site: Type.String(), redirect: Type.String() }),
]);

export const PublishedSiteContent = Type.Object({
  site: Type.String(),
  siteSection: Type.Optional(Type.String()),
  siteSpace: Type.String(),
  space: Type.String(),
  changeRequest: Type.Optional(Type.String()),
  revision: Type.Optional(Type.String()),
  pathname: Type.String(),
  basePath: Type.String(),
  siteBasePath: Type.String(),
  apiToken: Type.String(),
  organization: Type.String(),
  shareKey: Type.Optional(Type.String()),
  complete: Type.Boolean(),
  contextId: Type.Optional(Type.String()),
  canonicalUrl: Type.String(),
  preview: Type.Optional(Type.Boolean()),
});

export const PublishedSiteContentLookup = Type.Union([PublishedContentRedirect, PublishedSiteContent]);
export type PublishedSiteContentLookup = Static<typeof PublishedSiteContentLookup>;
