import { Type } from 'typebox';

/** `app` in the application; `published`, in a site's search, on the published site (where the reader shows it). */
const ResultUrls = Type.Object({
  app: Type.String({ format: 'uri' }),
  published: Type.Optional(Type.String({ format: 'uri', description: "The page's URL on the published site (site search only)" })),
});

/** The spec's SearchSectionResult, SearchPageResult and SearchSpaceResult. */
export const SearchSectionResult = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    path: Type.String(),
    body: Type.String({ description: 'An excerpt of the section, HTML-escaped, matched words inside <mark></mark>' }),
    urls: ResultUrls,
  },
  { $id: 'SearchSectionResult' },
);

export const SearchPageResult = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    path: Type.String(),
    sections: Type.Optional(Type.Array(SearchSectionResult)),
    urls: ResultUrls,
  },
  { $id: 'SearchPageResult' },
);

export const SearchSpaceResult = Type.Object(
  { id: Type.String(), title: Type.String(), pages: Type.Array(SearchPageResult) },
  { $id: 'SearchSpaceResult' },
);

export const SearchQuery = Type.Object({
  query: Type.String({ maxLength: 512 }),
  page: Type.Optional(Type.String({ description: 'Opaque cursor: next.page of the previous response' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size (default 50)' })),
});

/** The spec's SiteSearchScope: the default content of each section (narrowed by restrictTo), given site-spaces, or all. */
export const SiteSearchScope = Type.Object({
  mode: Type.Union([Type.Literal('default'), Type.Literal('specific'), Type.Literal('all')]),
  currentSiteSpace: Type.Optional(Type.String({ minLength: 1 })),
  includedSiteSpaces: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000 })),
  siteSpaceIds: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000 })),
  restrictTo: Type.Optional(Type.Union([Type.Literal('currentSiteSpace'), Type.Literal('otherSiteSpaces')], { description: 'With mode "default" and currentSiteSpace: only that site-space, or only the others' })),
});

/** The body of searchSiteContent: `query` and a SiteSearchScope, or the deprecated `mode` forms. */
export const SiteSearchBody = Type.Object({
  query: Type.String({ maxLength: 512 }),
  scope: Type.Optional(SiteSearchScope),
  mode: Type.Optional(Type.Union([Type.Literal('specific'), Type.Literal('current'), Type.Literal('all')])),
  siteSpaceIds: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000 })),
  siteSpaceId: Type.Optional(Type.String({ minLength: 1 })),
});

export const ListOnlyQuery = Type.Object({
  page: Type.Optional(Type.String({ description: 'Opaque cursor: next.page of the previous response' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size (default 50)' })),
});
