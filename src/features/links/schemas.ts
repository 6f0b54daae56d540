import { Type } from 'typebox';
import { ListQuery, listOf } from '../../platform/schemas.ts';
import { Organization } from '../organizations/schemas.ts';
import { Space } from '../spaces/schemas.ts';
import { RevisionFile, RevisionPage } from '../content/schemas.ts';

// Organization and Space carry `$id`s; a schema may name each only once, and locations repeat them.
const EmbeddedOrganization = Type.Object(Organization.properties);
const EmbeddedSpace = Type.Object(Space.properties);

export const LinkStatus = Type.Union([Type.Literal('ok'), Type.Literal('broken'), Type.Literal('in-app')]);

/** The spec's ContentLocation, in the kinds links point at: a page (maybe an anchor in it), a file, a URL. */
export const ContentLocation = Type.Union([
  Type.Object({
    kind: Type.Literal('page'),
    organization: EmbeddedOrganization,
    space: EmbeddedSpace,
    page: RevisionPage,
    internalLocation: Type.Optional(Type.Object({ type: Type.Literal('anchor'), anchor: Type.String() })),
  }),
  Type.Object({ kind: Type.Literal('file'), organization: EmbeddedOrganization, space: EmbeddedSpace, file: RevisionFile }),
  Type.Object({ kind: Type.Literal('url'), url: Type.String() }),
]);

export const ContentReferenceUsage = Type.Object({
  status: LinkStatus,
  relation: Type.Union([Type.Literal('reference'), Type.Literal('dependsOn')]),
  targetReference: Type.Optional(ContentLocation),
  locationReferences: Type.Array(ContentLocation),
});

export const LinkList = Type.Object({
  ...listOf(ContentReferenceUsage).properties,
  stats: Type.Object({
    total: Type.Number(),
    broken: Type.Object({ total: Type.Number(), changeRequest: Type.Optional(Type.Number()) }),
  }),
});

export const BacklinkList = listOf(ContentLocation);

export const LinksQuery = Type.Object({ ...ListQuery.properties, status: Type.Optional(LinkStatus) });
