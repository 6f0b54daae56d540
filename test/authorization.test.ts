import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';
import { startServer, type ApiResponse, type TestServer, type TestUser } from './helpers.ts';
import { assertError } from './assertions.ts';
import { buildChangeRequest, buildCollection, buildComment, buildCommentReply, buildSpace, buildTeam, markdown, mergeChangeRequest, writeContent } from './factories.ts';
import { defaultCustomization } from '../src/features/sites/customization-schema.ts';
import { defaultAdaptiveSchema } from '../src/features/adaptive/schema.ts';
import { createLink } from '../src/features/auth/links.ts';
import { SITE_READ_OPERATIONS } from '../src/features/urls/read-token.ts';
import { insertAnswer, recordQuestion } from '../src/features/site-questions/store.ts';

/**
 * Trying to break in: every operation of the server's own OpenAPI document, run as four callers who should
 * not get far, must answer exactly the status the product rules give (features/<area>/policy.ts, issue 6):
 * - anonymous: no token at all;
 * - outsider:  the admin of ANOTHER organization (the organization here is invisible to them: 404, and a
 *              DELETE of what they cannot see is 204 like the DELETE of what does not exist);
 * - guest:     a member without a role and without grants (sees the organization, nothing in it);
 * - reader:    a `read` member (reads; comment/edit/review/create/admin are all out of reach).
 * - installation: a token of an integration installed in the organization, on the fixture space and site, with
 *              the scopes `space:content:read`, `site:metadata:read` and `openapi:read` (issue 17): 403 for
 *              every operation its scopes do not cover (the default of a row), 404 for what it does not reach.
 * A new operation without a row here fails the first test, so nothing is added without this check.
 */

const CALLERS = ['anonymous', 'outsider', 'guest', 'reader', 'installation'] as const;
type Who = (typeof CALLERS)[number];
type Expect = Record<Who, number>;
/**
 * What a row gives: the installation's status only where it is not the usual 403 (an operation its scopes do
 * not cover, or one not for integrations at all: features/integrations/scopes.ts).
 */
type RowExpect = Omit<Expect, 'installation'> & { installation?: number };
/** The same answer, with what the installation token gets. */
const inst = (installation: number, expect: RowExpect): RowExpect => ({ ...expect, installation });

/** The shared fixtures; a path parameter is filled from the field of its name in the document (`*`: a page path). */
interface Fixture {
  organizationId: string;
  otherOrganizationId: string;
  auditEventId: string;
  userId: string;
  teamId: string;
  collectionId: string;
  spaceId: string;
  changeRequestId: string;
  pageId: string;
  '*': string;
  fileId: string;
  revisionId: string;
  /** A reusable content of the space's content (and so of the change request's). */
  reusableContentId: string;
  /** The document of the fixture page, and a review of the change request (by a member with the review role on the space). */
  documentId: string;
  reviewId: string;
  /** The organization's subdomain (its hostname), and the e-mail domain of every test user. */
  subdomain: string;
  emailDomain: string;
  commentId: string;
  commentReplyId: string;
  /** A comment of the change request's own discussion, and a reply to it. */
  crCommentId: string;
  crCommentReplyId: string;
  /** A site publishing the space in a section (so the reader sees it), a section group, a share link. */
  siteId: string;
  siteSpaceId: string;
  siteSectionId: string;
  siteSectionGroupId: string;
  shareLinkId: string;
  siteRedirectId: string;
  /** A question readers asked the fixture site, and its answer (written through the store: no model here). */
  siteQuestionId: string;
  siteQuestionAnswerId: string;
  /** An OpenAPI spec of the organization and its version. */
  specSlug: string;
  specId: string;
  versionId: string;
  translationId: string;
  /** An entry of the organization's translation glossary. */
  glossaryEntryId: string;
  /** An import run of the fixture space (its job fails: the URL is a loopback address this server may not fetch). */
  importRunId: string;
  samlProviderId: string;
  oidcProviderId: string;
  domainId: string;
  identityId: string;
  /** An organization invite link, a session and an API token of the organization's admin, and a one-time link of a colleague. */
  inviteId: string;
  sessionId: string;
  tokenId: string;
  /** An id no notification has: everyone's PATCH of it is a 404, as another person's is. */
  notificationId: string;
  token: string;
  /** A private integration of the organization, installed there (on the fixture space and site). */
  integrationName: string;
  installationId: string;
  /** The installation_setup event of that installation. */
  eventId: string;
  /** A custom font of the organization, and the hash of a WOFF2 file uploaded for fonts. */
  fontId: string;
  fontFile: string;
  /** An external link of the fixture site, in its section group. */
  siteExternalLinkId: string;
  /** The custom hostname of the fixture site. */
  hostname: string;
  /** A GitHub repository's owner and name and a GitLab project's id, as Git Sync installations name them. */
  accountName: string;
  repositoryName: string;
  projectId: string;
}

interface Row {
  /** Which of the shared objects the row acts on, when the document's parameter names are ambiguous. */
  at?: (f: Fixture) => Partial<Fixture>;
  /** A valid body for the operation, so that a refusal is not hidden behind a 400. */
  body?: (f: Fixture) => unknown;
  /**
   * Objects of the row's own, made fresh for every call: operations that destroy or move what they act on
   * (in case the server wrongly lets a caller through) must not take the shared fixtures with them.
   */
  own?: (f: Fixture) => Promise<Partial<Fixture>>;
  expect: RowExpect;
  /** A query string the operation requires (without `?`), so that a refusal is not hidden behind a 400. */
  query?: string | ((f: Fixture) => string);
  /** What a successful answer may show this caller. */
  check?: (who: Who, res: ApiResponse, f: Fixture) => void;
}

// The usual shapes of an answer, named after the rule that gives them.
/** Not about any organization: every signed-in caller gets the same answer. */
const anyUser = (status: number): RowExpect => ({ anonymous: 401, outsider: status, guest: status, reader: status });
/** Inside the organization, at its level (members, teams, settings): the guest sees the organization. */
const inOrganization = (guest: number, reader: number): RowExpect => ({ anonymous: 401, outsider: 404, guest, reader });
/** Inside a space or collection: a guest without grants cannot see it either. */
const inContent = (reader: number): RowExpect => ({ anonymous: 401, outsider: 404, guest: 404, reader });
/** DELETE inside a space or collection: what the caller cannot see is, for them, already gone. */
const deleteInContent = (reader: number): RowExpect => ({ anonymous: 401, outsider: 204, guest: 204, reader });
/** DELETE at the organization's level: the guest sees the organization, so they are refused. */
const deleteInOrganization = (guest: number, reader: number): RowExpect => ({ anonymous: 401, outsider: 204, guest, reader });

/** A list answer holds the object only for the callers who can see it: 200 must not leak what 404 hides. */
const lists =
  (idOf: (f: Fixture) => string, seenBy: readonly Who[]) =>
  (who: Who, res: ApiResponse, f: Fixture): void => {
    const ids = (res.body.items as { id: string }[]).map((item) => item.id);
    assert.equal(ids.includes(idOf(f)), seenBy.includes(who), `${who} ${seenBy.includes(who) ? 'should' : 'should not'} find ${idOf(f)} in ${JSON.stringify(ids)}`);
  };

/** A search answer (spaces with pages) holds the space only for the callers who can read it. */
const searchFinds = (idOf: (f: Fixture) => string, seenBy: readonly Who[]) => lists(idOf, seenBy);

describe('authorization: every operation as callers who should not get far', () => {
  let t: TestServer;
  let fixture: Fixture;
  let tokens: Record<Who, string | null>;
  let reader: TestUser;
  let outsider: TestUser & { organizationId: string };
  const operations = new Map<string, { method: string; path: string; hasBody: boolean; statuses: string[]; public: boolean }>();

  /** An admin call that must succeed; answers the body. */
  async function setup(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown) {
    const res = await t.api(method, path, body === undefined ? {} : { body });
    assert.ok(res.status < 300, `setup ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  const newSpace = async (f: Fixture) => (await buildSpace(t, { title: 'Own space', parent: f.collectionId }, { organizationId: f.organizationId })).id as string;
  const newCollection = async (f: Fixture) => (await buildCollection(t, { title: 'Own collection' }, { organizationId: f.organizationId })).id as string;
  /** A Git Sync installation of the provider on a space of its own (without a token: refusals come first). */
  const newGitInstallation = async (f: Fixture, provider: 'github' | 'gitlab') =>
    (await setup('POST', '/v1/git/installations', { provider, target: { type: 'space', spaceId: await newSpace(f) } })).id as string;
  const newTeam = async (f: Fixture) => (await buildTeam(t, { title: 'Own team', members: [f.userId] }, { organizationId: f.organizationId })).id as string;
  const newChangeRequest = async (f: Fixture) => {
    const cr = await buildChangeRequest(t, f.spaceId, { subject: 'Own change request' });
    await writeContent(t, f.spaceId, cr.id, [{ operation: 'insert_page', title: 'Own page', document: markdown('Own.') }]);
    return cr.id as string;
  };
  const inChangeRequestOf = (f: Fixture, inChangeRequest: boolean) => (inChangeRequest ? { changeRequestId: f.changeRequestId } : {});
  const newComment = async (f: Fixture, inChangeRequest: boolean) => (await buildComment(t, f.spaceId, { markdown: 'Own comment', ...inChangeRequestOf(f, inChangeRequest) })).id as string;
  const newReply = async (f: Fixture, inChangeRequest: boolean) =>
    (await buildCommentReply(t, f.spaceId, inChangeRequest ? f.crCommentId : f.commentId, { markdown: 'Own reply', ...inChangeRequestOf(f, inChangeRequest) })).id as string;
  const sites = (f: Fixture) => `/v1/orgs/${f.organizationId}/sites`;
  const newSite = async (f: Fixture) => (await setup('POST', sites(f), { title: 'Own site', spaces: [f.spaceId] })).id as string;
  const newSection = async (f: Fixture) => (await setup('POST', `${sites(f)}/${f.siteId}/sections`, { spaceId: f.spaceId, title: 'Own section' })).id as string;
  const newGroup = async (f: Fixture) => (await setup('POST', `${sites(f)}/${f.siteId}/section-groups`, { title: 'Own group' })).id as string;
  const newSiteSpace = async (f: Fixture) => (await setup('POST', `${sites(f)}/${f.siteId}/site-spaces`, { spaceId: f.spaceId, sectionId: f.siteSectionId })).id as string;
  const specText = () => JSON.stringify({ openapi: '3.1.0', info: { title: 'Spec', version: '1' }, paths: { '/ping': { get: { responses: { '204': { description: 'Pong' } } } } } });
  const newSpec = async (f: Fixture) => {
    const slug = `own-spec-${Math.random().toString(36).slice(2, 8)}`;
    await setup('POST', `/v1/orgs/${f.organizationId}/openapi`, { slug, source: { text: specText() } });
    return slug;
  };
  const newShareLink = async (f: Fixture) => (await setup('POST', `${sites(f)}/${f.siteId}/share-links`, { name: 'Own link' })).id as string;
  const newRedirect = async (f: Fixture) =>
    (await setup('POST', `${sites(f)}/${f.siteId}/redirects`, { source: `/own-${Math.random().toString(36).slice(2, 8)}`, destination: { kind: 'site-section', siteSectionId: f.siteSectionId } })).id as string;
  const newTranslation = async (f: Fixture) => (await setup('POST', `/v1/orgs/${f.organizationId}/translations`, { title: 'Own translation', languages: ['fr'], source: { space: f.spaceId, language: 'en' } })).id as string;
  const newImportRun = async (f: Fixture) =>
    (await setup('POST', `/v1/org/${f.organizationId}/imports`, { source: { type: 'website', url: 'http://127.0.0.1:9/' }, target: { space: f.spaceId } })).id as string;
  const newSamlProvider = async (f: Fixture) => (await setup('POST', `/v1/orgs/${f.organizationId}/saml`, { label: 'Own IdP' })).id as string;
  const oidcBody = { label: 'Own OIDC', issuer: 'https://idp.example.com', clientId: 'quire', clientSecret: 'a secret' };
  const newOidcProvider = async (f: Fixture) => (await setup('POST', `/v1/orgs/${f.organizationId}/oidc`, oidcBody)).id as string;
  const newDomain = async (f: Fixture) => (await setup('POST', `/v1/orgs/${f.organizationId}/sso/domains`, { domain: `d${Math.random().toString(36).slice(2, 10)}.example` })).id as string;
  const newInvite = async (f: Fixture) => (await setup('POST', `/v1/orgs/${f.organizationId}/link-invites`, { role: 'read' })).id as string;
  const newLinkToken = async (f: Fixture) => {
    const link = await createLink(t.app.ctx, t.db, { kind: 'reset', userId: f.userId });
    return link.url.slice(link.url.lastIndexOf('/') + 1);
  };
  const integrationManifest = (f: Fixture) => ({
    organization: f.organizationId,
    title: 'Table integration',
    description: 'Installed for the authorization table',
    script: 'export default {}',
    scopes: ['space:content:read', 'site:metadata:read', 'openapi:read'],
    visibility: 'private',
  });
  const newIntegration = async (f: Fixture) => {
    const name = `own-integration-${Math.random().toString(36).slice(2, 8)}`;
    await setup('POST', `/v1/integrations/${name}`, integrationManifest(f));
    return name;
  };
  const newFont = async (f: Fixture) =>
    (await setup('PUT', `/v1/orgs/${f.organizationId}/fonts`, { fontFamily: 'Own font', fontFaces: [{ weight: 400, storageKey: f.fontFile }] })).id as string;
  /** A published site of the fixture space (the fixture site is not published): its URL under this server. */
  const newPublishedSite = async (f: Fixture) => {
    const site = await setup('POST', sites(f), { title: 'Published docs', spaces: [f.spaceId] });
    await setup('POST', `${sites(f)}/${site.id}/publish`);
    return { siteId: site.id as string };
  };
  const publishedUrl = (f: Fixture) => `${t.app.ctx.config.publicUrl}/sites/${f.siteId}/`;
  const computedSource = { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'api' } } } };
  const newExternalLink = async (f: Fixture) => (await setup('POST', `${sites(f)}/${f.siteId}/external-links`, { title: 'Own link', url: 'https://own.example.com/' })).id as string;
  const newHostname = async (f: Fixture) => {
    const hostname = `h${Math.random().toString(36).slice(2, 10)}.docs.example`;
    const site = await setup('POST', sites(f), { title: 'Own hostname site', spaces: [f.spaceId] });
    await setup('PATCH', `${sites(f)}/${site.id}`, { hostname });
    return hostname;
  };
  /** The change request's discussion: its own comment and reply. */
  const crThread = (f: Fixture) => ({ commentId: f.crCommentId, commentReplyId: f.crCommentReplyId });

  /** Every operation of the document, by operationId. */
  const table: Record<string, Row> = {
    // --- Not about an organization
    getApiInformation: { expect: { anonymous: 200, outsider: 200, guest: 200, reader: 200, installation: 200 } },
    getAuthenticatedUser: { expect: anyUser(200) },
    // Users are visible to themselves and to whoever shares an organization with them; a guest shares one
    // (and must resolve the authors of what it is granted), the outsider does not.
    getUserById: { expect: inOrganization(200, 200) },
    // Each person changes their own profile: another one they can see is a 403, one they cannot a 404.
    updateUserById: { body: () => ({ displayName: 'Renamed colleague' }), expect: inOrganization(403, 403) },
    // Only the organizations the caller may join with a proven address of the domain: none here (the fixture
    // organizations admit no domain), so every signed-in caller gets an empty list.
    getOrganizationsForEmailDomain: { expect: anyUser(200), check: (_who, res) => assert.deepEqual(res.body.organizations, []) },
    listOrganizationsForAuthenticatedUser: { expect: anyUser(200), check: lists((f) => f.organizationId, ['guest', 'reader']) },
    // Anyone signed in may start an organization of their own.
    createOrganization: { body: () => ({ title: 'Their own organization' }), expect: anyUser(201) },

    // --- The organization
    getOrganizationById: { expect: inst(200, inOrganization(200, 200)) },
    updateOrganizationById: { body: () => ({ title: 'Renamed organization' }), expect: inOrganization(403, 403) },
    // Members are in already (204, nothing changes); the organization admits no e-mail domain, so to the
    // outsider it is not there.
    joinOrganization: { expect: inOrganization(204, 204) },
    getSubdomain: { expect: inOrganization(200, 200), check: (_who, res, f) => assert.deepEqual(res.body.target, { type: 'organization', organization: f.organizationId }) },

    // --- Members
    listMembersInOrganizationById: { expect: inOrganization(403, 200) },
    getMemberInOrganizationById: { expect: inOrganization(403, 200) },
    updateMemberInOrganizationById: { body: () => ({ role: 'read' }), expect: inOrganization(403, 403) },
    removeMemberFromOrganizationById: {
      own: async () => ({ userId: (await t.member('read')).userId }),
      expect: deleteInOrganization(403, 403),
    },
    // Every member (a guest too) records its own activity and receives its own visitor claims.
    updateOrganizationMemberLastSeenAt: { expect: inOrganization(200, 200) },
    setUserAsSSOMemberForOrganization: { expect: inOrganization(403, 403) },
    // Product decision (members/policy.ts): another member's spaces name content the caller may not be able to
    // read, so only that member and organization admins list them; a read member gets 403 here.
    listSpacesForOrganizationMember: { expect: inOrganization(403, 403) },
    listTeamsForOrganizationMember: { expect: inOrganization(403, 200) },
    inviteUsersToOrganization: { body: () => ({ emails: ['invited@quire.test'] }), expect: inOrganization(403, 403) },

    // --- Teams (a guest that is not in the team sees nothing of it)
    listTeamsInOrganizationById: { expect: inOrganization(403, 200) },
    createOrganizationTeam: { body: () => ({ title: 'New team' }), expect: inOrganization(403, 403) },
    getTeamInOrganizationById: { expect: inOrganization(403, 200) },
    updateTeamInOrganizationById: { body: () => ({ title: 'Renamed team' }), expect: inOrganization(403, 403) },
    removeTeamFromOrganizationById: { own: async (f) => ({ teamId: await newTeam(f) }), expect: deleteInOrganization(403, 403) },
    listTeamMembersInOrganizationById: { expect: inOrganization(403, 200) },
    updateMembersInOrganizationTeam: { body: (f) => ({ add: [f.userId] }), expect: inOrganization(403, 403) },
    addMemberToOrganizationTeamById: { body: () => ({ role: 'member' }), expect: inOrganization(403, 403) },
    deleteMemberFromOrganizationTeamById: { own: async (f) => ({ teamId: await newTeam(f) }), expect: deleteInOrganization(403, 403) },

    // --- Who has access to a space or collection (seeing it needs read; changing it, admin)
    inviteToSpace: { body: (f) => ({ role: 'read', users: [f.userId] }), expect: inContent(403) },
    listUserPermissionsInSpace: { expect: inContent(200) },
    listPermissionsAggregateInSpace: { expect: inContent(200) },
    listTeamPermissionsInSpace: { expect: inContent(200) },
    updateUserPermissionInSpace: { body: () => ({ role: 'edit' }), expect: inContent(403) },
    removeUserFromSpace: { expect: deleteInContent(403) },
    updateTeamPermissionInSpace: { body: () => ({ role: 'comment' }), expect: inContent(403) },
    removeTeamFromSpace: { expect: deleteInContent(403) },
    inviteToCollection: { body: (f) => ({ role: 'read', users: [f.userId] }), expect: inContent(403) },
    listUserPermissionsInCollection: { expect: inContent(200) },
    listTeamPermissionsInCollection: { expect: inContent(200) },
    listPermissionsAggregateInCollection: { expect: inContent(200) },
    updateUserPermissionInCollection: { body: () => ({ role: 'edit' }), expect: inContent(403) },
    removeUserFromCollection: { expect: deleteInContent(403) },
    updateTeamPermissionInCollection: { body: () => ({ role: 'comment' }), expect: inContent(403) },
    removeTeamFromCollection: { expect: deleteInContent(403) },

    // --- Collections
    // The organization is visible to a guest, so its lists answer 200 (with nothing the guest cannot see in them).
    listCollectionsInOrganizationById: { expect: inOrganization(200, 200), check: lists((f) => f.collectionId, ['reader']) },
    createCollection: { body: () => ({ title: 'New collection' }), expect: inOrganization(403, 403) },
    getCollectionById: { expect: inContent(200) },
    updateCollectionById: { body: () => ({ title: 'Renamed collection' }), expect: inContent(403) },
    deleteCollectionById: { own: async (f) => ({ collectionId: await newCollection(f) }), expect: deleteInContent(403) },
    listSpacesInCollectionById: { expect: inst(404, inContent(200)), check: lists((f) => f.spaceId, ['reader']) },
    moveCollection: { body: () => ({ parent: null }), expect: inContent(403) },
    transferCollection: {
      own: async (f) => ({ collectionId: await newCollection(f) }),
      body: (f) => ({ organization: f.otherOrganizationId }),
      expect: inContent(403),
    },

    // --- Spaces
    listSpacesInOrganizationById: { expect: inst(200, inOrganization(200, 200)), check: lists((f) => f.spaceId, ['reader', 'installation']) },
    listSpacesInTrash: { expect: inst(403, inOrganization(200, 200)) },
    createSpace: { body: () => ({ title: 'New space' }), expect: inOrganization(403, 403) },
    getSpaceById: { expect: inst(200, inContent(200)) },
    searchSpaceContent: { query: 'query=welcome', expect: inst(200, inContent(200)), check: (_who, res, f) => assert.deepEqual(res.body.items.map((p: { id: string }) => p.id), [f.pageId]) },
    searchOrganizationContent: { query: 'query=welcome', expect: inOrganization(200, 200), check: searchFinds((f) => f.spaceId, ['reader']) },
    // Ask: past the organization's (or the site's) access, this server has no model, and says so (400).
    askInOrganization: { body: () => ({ query: 'welcome' }), expect: inOrganization(400, 400) },
    streamAskInOrganization: { query: 'query=welcome', expect: inOrganization(400, 400) },
    getRecommendedQuestionsInOrganization: { expect: inOrganization(400, 400) },
    streamRecommendedQuestionsInOrganization: { expect: inOrganization(400, 400) },
    getAskAvailability: { expect: inOrganization(200, 200), check: (_who, res) => assert.equal(res.body.available, false) },
    updateSpaceById: { body: () => ({ title: 'Renamed space' }), expect: inContent(403) },
    deleteSpaceById: { own: async (f) => ({ spaceId: await newSpace(f) }), expect: deleteInContent(403) },
    duplicateSpace: { expect: inContent(403) },
    restoreSpace: {
      own: async (f) => {
        const spaceId = await newSpace(f);
        await setup('DELETE', `/v1/spaces/${spaceId}`);
        return { spaceId };
      },
      expect: inContent(403),
    },
    moveSpace: { body: () => ({ parent: null }), expect: inContent(403) },
    transferSpace: { own: async (f) => ({ spaceId: await newSpace(f) }), body: (f) => ({ organization: f.otherOrganizationId }), expect: inContent(403) },

    // --- Change requests (opening and changing one needs edit; merging, review)
    listChangeRequestsForSpace: { expect: inst(200, inContent(200)) },
    listChangeRequestsForOrganization: { expect: inOrganization(200, 200), check: lists((f) => f.changeRequestId, ['reader']) },
    createChangeRequest: { body: () => ({ subject: 'New change request' }), expect: inContent(403) },
    getChangeRequestById: { expect: inst(200, inContent(200)) },
    updateChangeRequestById: { body: () => ({ subject: 'Renamed change request' }), expect: inContent(403) },
    updateChangeRequestContent: {
      body: () => ({ changes: [{ operation: 'insert_page', title: 'Another page', document: markdown('More.') }] }),
      expect: inContent(403),
    },
    updateSpaceContent: {
      body: () => ({ changes: [{ operation: 'insert_page', title: 'Another live page', document: markdown('More.') }] }),
      expect: inContent(403),
    },
    // Any bytes are a file; a refused caller's are never stored.
    uploadSpaceFile: { query: 'name=notes.txt', body: () => 'Some notes', expect: inContent(403) },
    getRevisionOfChangeRequestById: { expect: inst(200, inContent(200)) },
    getChangeRequestChanges: { expect: inst(200, inContent(200)) },
    mergeChangeRequest: { own: async (f) => ({ changeRequestId: await newChangeRequest(f) }), expect: inContent(403) },
    updateChangeRequest: { expect: inContent(403) },
    getContributorsByChangeRequestId: { expect: inst(200, inContent(200)) },
    // Who is in which page now: for the people reading the change request, not for integrations.
    getChangeRequestPresence: { expect: inContent(200) },

    // --- Reviews (giving one needs the review role and a person; asking for one, the edit role)
    getReviewsByChangeRequestId: { expect: inst(200, inContent(200)) },
    getChangeRequestReviewById: { expect: inst(200, inContent(200)) },
    submitChangeRequestReview: { body: () => ({ status: 'approved' }), expect: inContent(403) },
    getRequestedReviewersByChangeRequestId: { expect: inst(200, inContent(200)) },
    requestReviewersForChangeRequest: { body: (f) => ({ users: [f.userId] }), expect: inContent(403) },
    removeRequestedReviewerFromChangeRequest: { expect: deleteInContent(403) },

    // --- Content reads, of the space and of a change request
    getCurrentRevision: { expect: inst(200, inContent(200)) },
    listPages: { expect: inst(200, inContent(200)) },
    getPageById: { expect: inst(200, inContent(200)) },
    listSpacePageMetaLinks: { expect: inst(200, inContent(200)) },
    getDocumentById: { expect: inst(200, inContent(200)) },
    getPageByPath: { expect: inst(200, inContent(200)) },
    listFiles: { expect: inst(200, inContent(200)) },
    getFileById: { expect: inst(200, inContent(200)) },
    listPagesInChangeRequest: { expect: inst(200, inContent(200)) },
    getPageInChangeRequestById: { expect: inst(200, inContent(200)) },
    listChangeRequestPageMetaLinks: { expect: inst(200, inContent(200)) },
    getPageInChangeRequestByPath: { expect: inst(200, inContent(200)) },
    listFilesInChangeRequestById: { expect: inst(200, inContent(200)) },
    getFileInChangeRequestById: { expect: inst(200, inContent(200)) },
    getRevisionById: { expect: inst(200, inContent(200)) },
    getRevisionSemanticChanges: { expect: inst(200, inContent(200)) },
    listPagesInRevisionById: { expect: inst(200, inContent(200)) },
    getPageInRevisionById: { expect: inst(200, inContent(200)) },
    getPageDocumentInRevisionById: { expect: inst(200, inContent(200)) },
    listRevisionPageMetaLinks: { expect: inst(200, inContent(200)) },
    getPageInRevisionByPath: { expect: inst(200, inContent(200)) },
    listFilesInRevisionById: { expect: inst(200, inContent(200)) },
    getFileInRevisionById: { expect: inst(200, inContent(200)) },
    getReusableContentInRevisionById: { expect: inst(200, inContent(200)) },
    getReusableContentDocumentInRevisionById: { expect: inst(200, inContent(200)) },
    getReusableContentById: { expect: inst(200, inContent(200)) },
    getReusableContentInChangeRequestById: { expect: inst(200, inContent(200)) },

    // --- Links and backlinks: reads of the space's content (features/links/)
    listSpaceLinks: { expect: inst(200, inContent(200)) },
    listPageLinksInSpace: { expect: inst(200, inContent(200)) },
    listSpacePageBacklinks: { expect: inst(200, inContent(200)) },
    listSpaceFileBacklinks: { expect: inst(200, inContent(200)) },
    listPageLinksInChangeRequest: { expect: inst(200, inContent(200)) },
    listChangeRequestPageBacklinks: { expect: inst(200, inContent(200)) },
    listChangeRequestFileBacklinks: { expect: inst(200, inContent(200)) },

    // --- Content writes (edit); rights are checked before anything is fetched from the URL
    applyTemplateToSpace: { body: () => ({ id: 'blank' }), expect: inContent(403) },
    importContent: { body: () => ({ url: 'https://docs.example.com/', source: 'website' }), expect: inContent(403) },
    importContentInPageById: { body: () => ({ url: 'https://docs.example.com/', source: 'website' }), expect: inContent(403) },
    importContentInChangeRequest: { body: () => ({ url: 'https://docs.example.com/', source: 'website' }), expect: inContent(403) },
    importContentInChangeRequestPageById: { body: () => ({ url: 'https://docs.example.com/', source: 'website' }), expect: inContent(403) },
    importGitRepository: { body: () => ({ url: 'https://git.example.com/docs.git', ref: 'refs/heads/main' }), expect: inContent(403) },
    exportToGitRepository: { body: () => ({ url: 'https://git.example.com/docs.git', ref: 'refs/heads/main', commitMessage: 'Export' }), expect: inContent(403) },
    // A space without Git Sync has no git info: 404 for everyone who may see the space.
    getSpaceGitInfo: { expect: inst(403, inContent(404)) },
    // Quire's automatic Git Sync (the fixture space is not connected): the edit right first, then 404.
    disconnectGitSync: { expect: deleteInContent(403) },
    syncGitNow: { expect: inContent(403) },
    createGitSyncWebhook: { expect: inContent(403) },
    // Git Sync installations (features/git-installations/policy.ts): organization admins install, change and
    // uninstall them; those who may set up Git Sync on the target (edit role) use them: a reader is refused.
    installGitSyncProviderOnTarget: { body: (f) => ({ provider: 'github', target: { type: 'space', spaceId: f.spaceId } }), expect: inContent(403) },
    getGitSyncInstallationById: { own: async (f) => ({ installationId: await newGitInstallation(f, 'github') }), expect: inContent(403) },
    updateGitSyncInstallationById: { own: async (f) => ({ installationId: await newGitInstallation(f, 'github') }), body: () => ({ provider: 'github', providerConfiguration: {} }), expect: inContent(403) },
    uninstallGitSyncInstallation: { own: async (f) => ({ installationId: await newGitInstallation(f, 'github') }), expect: inContent(403) },
    listGitHubRepositoriesForGitSyncInstallation: { own: async (f) => ({ installationId: await newGitInstallation(f, 'github') }), expect: inContent(403) },
    listGitHubRepoBranchesForGitSyncInstallation: { own: async (f) => ({ installationId: await newGitInstallation(f, 'github') }), expect: inContent(403) },
    getGitHubRepoFileForGitSyncInstallation: { own: async (f) => ({ installationId: await newGitInstallation(f, 'github') }), query: 'path=README.md&ref=main', expect: inContent(403) },
    listGitLabProjectsForGitSyncInstallation: { own: async (f) => ({ installationId: await newGitInstallation(f, 'gitlab') }), expect: inContent(403) },
    listGitLabProjectBranchesForGitSyncInstallation: { own: async (f) => ({ installationId: await newGitInstallation(f, 'gitlab') }), expect: inContent(403) },
    getGitLabProjectFileForGitSyncInstallation: { own: async (f) => ({ installationId: await newGitInstallation(f, 'gitlab') }), query: 'path=README.md&ref=main', expect: inContent(403) },
    // Whoever sees the site lists the installations they may use: a reader none.
    listSiteGitSyncInstallations: { expect: inContent(200), check: (_who, res) => assert.deepEqual(res.body.items, []) },
    // A Git server's delivery: no token; the fixture space has no webhook, for whoever sends it.
    receiveGitSyncWebhook: { expect: { anonymous: 404, outsider: 404, guest: 404, reader: 404, installation: 404 } },

    // --- Comments of the space (taking part needs comment; editing is the author's, deleting the author's or an admin's)
    listCommentsInSpace: { expect: inst(200, inContent(200)) },
    postCommentInSpace: { body: () => ({ body: markdown('A comment') }), expect: inContent(403) },
    getCommentInSpace: { expect: inst(200, inContent(200)) },
    updateCommentInSpace: { body: () => ({ body: markdown('Edited') }), expect: inContent(403) },
    deleteCommentInSpace: { own: async (f) => ({ commentId: await newComment(f, false) }), expect: deleteInContent(403) },
    listCommentRepliesInSpace: { expect: inst(200, inContent(200)) },
    postCommentReplyInSpace: { body: () => ({ body: markdown('A reply') }), expect: inContent(403) },
    getCommentReplyInSpace: { expect: inst(200, inContent(200)) },
    updateCommentReplyInSpace: { body: () => ({ body: markdown('Edited') }), expect: inContent(403) },
    deleteCommentReplyInSpace: { own: async (f) => ({ commentReplyId: await newReply(f, false) }), expect: deleteInContent(403) },
    listCommentersInSpace: { expect: inst(200, inContent(200)) },

    // --- Comments of a change request (the same rules)
    listCommentsInChangeRequest: { expect: inst(200, inContent(200)) },
    postCommentInChangeRequest: { body: () => ({ body: markdown('A comment') }), expect: inContent(403) },
    getCommentInChangeRequest: { at: crThread, expect: inst(200, inContent(200)) },
    updateCommentInChangeRequest: { at: crThread, body: () => ({ body: markdown('Edited') }), expect: inContent(403) },
    deleteCommentInChangeRequest: { own: async (f) => ({ commentId: await newComment(f, true) }), expect: deleteInContent(403) },
    listCommentRepliesInChangeRequest: { at: crThread, expect: inst(200, inContent(200)) },
    postCommentReplyInChangeRequest: { at: crThread, body: () => ({ body: markdown('A reply') }), expect: inContent(403) },
    getCommentReplyInChangeRequest: { at: crThread, expect: inst(200, inContent(200)) },
    updateCommentReplyInChangeRequest: { at: crThread, body: () => ({ body: markdown('Edited') }), expect: inContent(403) },
    deleteCommentReplyInChangeRequest: { at: crThread, own: async (f) => ({ commentReplyId: await newReply(f, true) }), expect: deleteInContent(403) },
    listCommentersInChangeRequest: { expect: inst(200, inContent(200)) },

    // --- Sites: org admins manage them; a member sees a site whose spaces it can read (the reader does), a
    // guest sees none (features/sites/policy.ts). Share links and visitor-auth keys are secrets: admins only.
    listSites: { expect: inst(200, inOrganization(200, 200)), check: lists((f) => f.siteId, ['reader', 'installation']) },
    createSite: { body: () => ({ title: 'New site' }), expect: inOrganization(403, 403) },
    getSiteById: { expect: inst(200, inContent(200)) },
    updateSiteById: { body: () => ({ title: 'Renamed site' }), expect: inContent(403) },
    deleteSiteById: { own: async (f) => ({ siteId: await newSite(f) }), expect: deleteInContent(403) },
    publishSite: { expect: inContent(403) },
    unpublishSite: { expect: inContent(403) },
    getPublishedContentSite: { expect: inst(200, inContent(200)) },
    // Search reads only what the caller can read: the fixture space's "Welcome" page for the reader, nothing for the guest.
    searchSiteContent: { body: () => ({ query: 'welcome', scope: { mode: 'all' } }), expect: inContent(200), check: searchFinds((f) => f.spaceId, ['reader']) },
    // Warming a site's search reveals and changes nothing a search could not: whoever searches the site warms it.
    prewarmSiteSearch: { expect: inContent(204) },
    streamAskInSite: { body: () => ({ question: 'welcome', scope: { mode: 'all' } }), expect: inContent(400) },
    streamRecommendedQuestionsInSite: { expect: inContent(400) },
    getSiteCustomizationById: { expect: inst(200, inContent(200)) },
    getSiteStructure: { expect: inst(200, inContent(200)) },
    getSiteSpaceCustomizationById: { expect: inst(200, inContent(200)) },
    overrideSiteSpaceCustomizationById: { body: () => ({ title: 'Overridden' }), expect: inContent(403) },
    deleteSiteSpaceCustomizationById: { expect: deleteInContent(403) },
    updateSiteCustomizationById: { body: () => defaultCustomization({ title: 'Customized' }), expect: inContent(403) },
    getSiteAdaptiveSchema: { expect: inContent(200) },
    updateSiteAdaptiveSchema: { body: () => ({ jsonSchema: defaultAdaptiveSchema() }), expect: inContent(403) },
    listSiteAdaptiveTemplateConditions: { expect: inContent(200) },
    getSitePublishingAuthById: { expect: inContent(403) },
    // A preview URL opens the whole site to its holder, as a share link does: admins only.
    getSitePublishingPreviewById: { expect: inContent(403) },
    updateSitePublishingAuthById: { body: () => ({ fallbackURL: 'https://login.example.com/' }), expect: inContent(403) },
    regenerateSitePublishingAuthById: { expect: inContent(403) },
    listSiteSpaces: { expect: inst(200, inContent(200)) },
    addSpaceToSite: { body: (f) => ({ spaceId: f.spaceId }), expect: inContent(403) },
    updateSiteSpaceById: { body: () => ({ path: 'renamed' }), expect: inContent(403) },
    deleteSiteSpaceById: { own: async (f) => ({ siteSpaceId: await newSiteSpace(f) }), expect: deleteInContent(403) },
    moveSiteSpace: { body: () => ({}), expect: inContent(403) },
    listSiteSections: { expect: inst(200, inContent(200)) },
    addSectionToSite: { body: (f) => ({ spaceId: f.spaceId }), expect: inContent(403) },
    updateSiteSectionById: { body: () => ({ title: 'Renamed section' }), expect: inContent(403) },
    deleteSiteSectionById: { own: async (f) => ({ siteSectionId: await newSection(f) }), expect: deleteInContent(403) },
    moveSiteSection: { body: () => ({}), expect: inContent(403) },
    listSiteSectionGroups: { expect: inst(200, inContent(200)) },
    addSectionGroupToSite: { body: () => ({ title: 'New group' }), expect: inContent(403) },
    updateSiteSectionGroupById: { body: () => ({ title: 'Renamed group' }), expect: inContent(403) },
    deleteSiteSectionGroupById: { own: async (f) => ({ siteSectionGroupId: await newGroup(f) }), expect: deleteInContent(403) },
    addSectionToGroup: { body: (f) => ({ sectionId: f.siteSectionId }), expect: inContent(403) },
    removeSectionFromGroup: { expect: deleteInContent(403) },
    moveSiteSectionGroup: { body: () => ({}), expect: inContent(403) },
    sortSiteStructure: { body: (f) => ({ item: { type: 'site-section', id: f.siteSectionId }, position: {} }), expect: inContent(403) },
    // External links are the site's structure; custom hostnames, a site's settings (read by whoever sees the site).
    addExternalLinkToSite: { body: () => ({ title: 'New link', url: 'https://example.com/' }), expect: inContent(403) },
    updateSiteExternalLinkById: { body: () => ({ title: 'Renamed link' }), expect: inContent(403) },
    deleteSiteExternalLinkById: { own: async (f) => ({ siteExternalLinkId: await newExternalLink(f) }), expect: deleteInContent(403) },
    // Duplicating a space of a site changes the site: its admins, who must also be able to copy the space.
    duplicateSiteSpace: { body: () => ({}), expect: inContent(403) },
    // A template gives an empty site a new space: its admins, who must also be able to create spaces.
    applyTemplateToSite: { expect: inContent(403) },
    getCustomHostname: { expect: inContent(200) },
    dnsRevalidateCustomHostname: { expect: inContent(403) },
    removeCustomHostname: { own: async (f) => ({ hostname: await newHostname(f) }), expect: deleteInContent(403) },
    listSiteShareLinks: { expect: inContent(403) },
    createSiteShareLink: { body: () => ({ name: 'New link' }), expect: inContent(403) },
    updateSiteShareLinkById: { body: () => ({ name: 'Renamed link' }), expect: inContent(403) },
    deleteSiteShareLinkById: { own: async (f) => ({ shareLinkId: await newShareLink(f) }), expect: deleteInContent(403) },
    listSiteRedirects: { expect: inContent(200) },
    // What readers asked a site and its agent settings: whoever sees the site reads them (its writers); its admins change the settings.
    listSiteQuestions: { expect: inContent(200) },
    getSiteQuestionById: { expect: inContent(200) },
    listSiteQuestionSources: { expect: inContent(200) },
    getSiteQuestionStats: { expect: inContent(200) },
    listSiteQuestionAnswers: { expect: inContent(200) },
    getSiteQuestionAnswerById: { expect: inContent(200) },
    getSiteQuestionAnswerThreadById: { expect: inContent(200) },
    listSiteQuestionAnswerSources: { expect: inContent(200) },
    getSiteAgentSettingsById: { expect: inContent(200) },
    updateSiteAgentSettingsById: { body: () => ({ scans: { topics: 'never' }, findings: { changeRequests: 'never' }, editing: { customInstructions: { object: 'document', data: {}, nodes: [] } } }), expect: inContent(403) },
    submitSiteAgentFeedback: { body: (f) => ({ feedback: 'Outdated', url: 'https://docs.example.com/welcome', spaceId: f.spaceId, pageId: f.pageId }), expect: inContent(204) },
    listSiteAgentFeedback: { expect: inContent(200) },
    createSiteRedirect: { body: (f) => ({ source: '/new-redirect', destination: { kind: 'site-section', siteSectionId: f.siteSectionId } }), expect: inContent(403) },
    getSiteRedirectBySource: { query: 'source=/auth-old', expect: inContent(200) },
    // Who has access to a site: anyone who sees it sees who; its admins (organization admins, members or teams
    // given admin on it) change it. Grants are not for integrations (features/integrations/scopes.ts).
    inviteToSite: { body: (f) => ({ role: 'read', users: [f.userId] }), expect: inContent(403) },
    listPermissionsAggregateInSite: { expect: inContent(200) },
    listUserPermissionsInSite: { expect: inContent(200) },
    listTeamPermissionsInSite: { expect: inContent(200) },
    updateUserPermissionInSite: { body: () => ({ role: 'edit' }), expect: inContent(403) },
    removeUserFromSite: { expect: deleteInContent(403) },
    updateTeamPermissionInSite: { body: () => ({ role: 'comment' }), expect: inContent(403) },
    removeTeamFromSite: { expect: deleteInContent(403) },
    updateSiteRedirectById: { body: (f) => ({ destination: { kind: 'site-space', siteSpaceId: f.siteSpaceId } }), expect: inContent(403) },
    deleteSiteRedirectById: { own: async (f) => ({ siteRedirectId: await newRedirect(f) }), expect: deleteInContent(403) },
    bulkUpsertSiteRedirects: { body: (f) => ({ redirects: [{ source: '/bulk-redirect', destination: { kind: 'site-section', siteSectionId: f.siteSectionId } }] }), expect: inContent(403) },

    // --- Custom fonts (features/fonts/policy.ts): every member reads them, organization admins change them.
    listCustomFonts: { expect: inOrganization(200, 200), check: lists((f) => f.fontId, ['guest', 'reader']) },
    createCustomFont: { body: (f) => ({ fontFamily: 'New font', fontFaces: [{ weight: 400, storageKey: f.fontFile }] }), expect: inOrganization(403, 403) },
    getCustomFont: { expect: inOrganization(200, 200) },
    updateCustomFont: { body: () => ({ fontFamily: 'Renamed font' }), expect: inOrganization(403, 403) },
    deleteCustomFont: { own: async (f) => ({ fontId: await newFont(f) }), expect: deleteInOrganization(403, 403) },
    // An upload for a font is the fonts' admins'; for other files, members who create content.
    generateStorageUploadURL: { body: () => ({ file: { name: 'face.woff2', type: 'font/woff2', size: 100 }, kind: 'customization_font' }), expect: inOrganization(403, 403) },

    // --- The audit log (features/audit/policy.ts): organization admins only, never an integration; refused
    // before any event is looked up, so a made-up id answers the same.
    listOrganizationAuditEvents: { expect: inOrganization(403, 403) },
    getOrganizationAuditEvent: { expect: inOrganization(403, 403) },
    listOrganizationAuditEventActions: { expect: inOrganization(403, 403) },
    getOrganizationAuditSettings: { expect: inOrganization(403, 403) },
    updateOrganizationAuditSettings: { body: () => ({ retentionDays: 30 }), expect: inOrganization(403, 403) },

    // --- OpenAPI specs (features/openapi-specs/policy.ts): members with a role read them, the create role
    // changes them; a guest sees the organization but no spec.
    listOpenAPISpecs: { expect: inst(200, inOrganization(403, 200)), check: lists((f) => f.specId, ['reader', 'installation']) },
    createOpenAPISpec: { body: () => ({ slug: 'new-spec', source: { text: specText() } }), expect: inOrganization(403, 403) },
    getOpenAPISpecBySlug: { expect: inst(200, inOrganization(403, 200)) },
    createOrUpdateOpenAPISpecBySlug: { body: () => ({ source: { text: specText() } }), expect: inOrganization(403, 403) },
    updateOpenAPISpecBySlug: { body: () => ({ visibility: 'public' }), expect: inOrganization(403, 403) },
    deleteOpenAPISpecBySlug: { own: async (f) => ({ specSlug: await newSpec(f) }), expect: deleteInOrganization(403, 403) },
    listOpenAPISpecVersions: { expect: inst(200, inOrganization(403, 200)) },
    getLatestOpenAPISpecVersion: { expect: inst(200, inOrganization(403, 200)) },
    getLatestOpenAPISpecVersionContentRaw: { expect: inst(200, inOrganization(403, 200)) },
    getLatestOpenAPISpecVersionContent: { expect: inst(200, inOrganization(403, 200)) },
    getOpenAPISpecVersionById: { expect: inst(200, inOrganization(403, 200)) },
    getOpenAPISpecVersionContentById: { expect: inst(200, inOrganization(403, 200)) },
    // --- Translations (members with a role see them; organization admins change and run them)
    listTranslations: { expect: inOrganization(403, 200), check: lists((f) => f.translationId, ['reader']) },
    createTranslation: { body: () => ({ title: 'New translation' }), expect: inOrganization(403, 403) },
    getTranslation: { expect: inOrganization(403, 200) },
    updateTranslation: { body: () => ({ title: 'Renamed translation' }), expect: inOrganization(403, 403) },
    deleteTranslation: { own: async (f) => ({ translationId: await newTranslation(f) }), expect: deleteInOrganization(403, 403) },
    runTranslation: { expect: inOrganization(403, 403) },
    listTranslationPages: { expect: inOrganization(403, 200) },
    listGlossaryEntries: { expect: inOrganization(403, 200), check: lists((f) => f.glossaryEntryId, ['reader']) },
    getGlossaryEntry: { expect: inOrganization(403, 200) },
    updateGlossaryEntries: { body: () => ({ operations: [{ type: 'insert', translations: { en: 'page', fr: 'page' } }] }), expect: inOrganization(403, 403) },
    // --- Import runs (what starting or cancelling one needs is what importContent needs: edit on the content;
    // a run is seen by those who see its space)
    startImportRun: { body: (f) => ({ source: { type: 'website', url: 'https://docs.example.com/' }, target: { space: f.spaceId } }), expect: inContent(403) },
    listImportRuns: { expect: inst(200, inOrganization(200, 200)), check: lists((f) => f.importRunId, ['reader', 'installation']) },
    getImportRun: { expect: inst(200, inContent(200)) },
    cancelImportRun: { own: async (f) => ({ importRunId: await newImportRun(f) }), expect: inContent(403) },

    // --- SAML providers (members with a role read them, admins change them; the sign-in list is public)
    listSAMLProvidersInOrganizationById: { expect: inOrganization(403, 200) },
    createOrganizationSAMLProvider: { body: () => ({ label: 'New IdP' }), expect: inOrganization(403, 403) },
    getOrganizationSAMLProviderById: { expect: inOrganization(403, 200) },
    updateOrganizationSAMLProvider: { body: () => ({ label: 'Renamed IdP' }), expect: inOrganization(403, 403) },
    deleteOrganizationSAMLProvider: { own: async (f) => ({ samlProviderId: await newSamlProvider(f) }), expect: deleteInOrganization(403, 403) },
    listSSOProviderLoginsInOrganization: { expect: { anonymous: 200, outsider: 200, guest: 200, reader: 200, installation: 200 } },

    // --- OpenID Connect providers (as SAML's)
    listOIDCProvidersInOrganization: { expect: inOrganization(403, 200) },
    createOrganizationOIDCProvider: { body: () => oidcBody, expect: inOrganization(403, 403) },
    getOrganizationOIDCProviderById: { expect: inOrganization(403, 200) },
    updateOrganizationOIDCProvider: { body: () => ({ label: 'Renamed OIDC' }), expect: inOrganization(403, 403) },
    deleteOrganizationOIDCProvider: { own: async (f) => ({ oidcProviderId: await newOidcProvider(f) }), expect: deleteInOrganization(403, 403) },

    // --- Verified domains of single sign-on (features/domains): they decide whose accounts the providers may
    // sign in, so organization admins only, reading included.
    listOrganizationSSODomains: { expect: inOrganization(403, 403) },
    addOrganizationSSODomain: { body: () => ({ domain: 'example.org' }), expect: inOrganization(403, 403) },
    verifyOrganizationSSODomain: { own: async (f) => ({ domainId: await newDomain(f) }), body: () => ({ method: 'dns' }), expect: inOrganization(403, 403) },
    removeOrganizationSSODomain: { own: async (f) => ({ domainId: await newDomain(f) }), expect: inOrganization(403, 403) },

    // --- Signing in (features/auth): public where no one is signed in yet; a bearer caller has no session or
    // password, so it gets what a browser without them gets. A one-time link is its own permission.
    signIn: { body: () => ({ email: `nobody-${Math.random().toString(36).slice(2, 8)}@quire.test`, password: 'not a password' }), expect: { anonymous: 401, outsider: 401, guest: 401, reader: 401, installation: 401 } },
    signOut: { expect: anyUser(204) },
    getSession: { expect: { anonymous: 401, outsider: 401, guest: 401, reader: 401, installation: 401 } },
    listSessions: { expect: anyUser(200), check: (_who, res, f) => assert.ok(!JSON.stringify(res.body).includes(f.sessionId)) },
    revokeSession: { expect: anyUser(404) },
    getSignInLink: { expect: { anonymous: 200, outsider: 200, guest: 200, reader: 200, installation: 200 } },
    useSignInLink: { own: async (f) => ({ token: await newLinkToken(f) }), body: () => ({ password: 'a new password' }), expect: { anonymous: 200, outsider: 200, guest: 200, reader: 200, installation: 200 } },
    requestPasswordReset: { body: () => ({ email: 'someone@quire.test' }), expect: { anonymous: 204, outsider: 204, guest: 204, reader: 204, installation: 204 } },
    changePassword: { body: () => ({ currentPassword: 'not a password', newPassword: 'another password' }), expect: anyUser(400) },
    listSignInProviders: { expect: { anonymous: 200, outsider: 200, guest: 200, reader: 200, installation: 200 } },
    // Proving one's own address: the test users' addresses are proven already (the operator made them).
    requestEmailVerification: { expect: anyUser(409) },
    listSignInIdentities: { expect: anyUser(200) },
    unlinkSignInIdentity: { own: async () => ({ identityId: 'no-such-link' }), expect: anyUser(404) },
    createInvitation: { body: (f) => ({ organizationId: f.organizationId, email: 'invitation@quire.test', role: 'read' }), expect: inOrganization(403, 403) },
    // An invite link is its own permission: whoever holds it reads what it is for and may sign up with it.
    getInviteLinkForJoining: { own: async (f) => ({ inviteId: await newInvite(f) }), expect: { anonymous: 200, outsider: 200, guest: 200, reader: 200, installation: 200 } },
    signUpWithInviteLink: {
      own: async (f) => ({ inviteId: await newInvite(f) }),
      body: () => ({ email: `joiner-${Math.random().toString(36).slice(2, 10)}@quire.test`, password: 'a long enough password' }),
      expect: { anonymous: 201, outsider: 201, guest: 201, reader: 201, installation: 201 },
    },

    // --- Personal API tokens: one's own only
    listUserTokens: { expect: anyUser(200), check: (_who, res, f) => assert.ok(!(res.body.items as { id: string }[]).some((i) => i.id === f.tokenId)) },
    createUserToken: { body: () => ({ label: 'Own token' }), expect: anyUser(201) },
    deleteUserToken: { expect: anyUser(404) },

    // --- One's inbox: one's own notifications only
    listUserNotifications: { expect: anyUser(200) },
    getUserNotificationSummary: { expect: anyUser(200) },
    markUserNotificationsRead: { expect: anyUser(204) },
    updateUserNotification: { body: () => ({ read: true }), expect: anyUser(404) },
    createUserNotificationsToken: { expect: anyUser(200) },

    // --- Organization invite links: admins manage them; whoever holds one and has an account joins (an
    // organization of its own, so that joining changes no other row's answer)
    listOrganizationInviteLinks: { expect: inOrganization(403, 403) },
    createOrganizationInvite: { body: () => ({ role: 'read' }), expect: inOrganization(403, 403) },
    getOrganizationInviteLink: { expect: inOrganization(403, 403) },
    updateOrganizationInviteById: { body: () => ({ role: 'comment' }), expect: inOrganization(403, 403) },
    deleteOrganizationInviteById: { own: async (f) => ({ inviteId: await newInvite(f) }), expect: deleteInOrganization(403, 403) },
    joinOrganizationWithInvite: {
      own: async () => {
        const owner = await t.outsider();
        const invite = await t.api('POST', `/v1/orgs/${owner.organizationId}/link-invites`, { token: owner.token, body: { role: 'read' } });
        return { organizationId: owner.organizationId, inviteId: invite.body.id };
      },
      expect: anyUser(200),
    },

    // --- PDF export (whoever reads the content gets a URL; a site's needs its space readable too)
    getChangeRequestPDF: { expect: inst(200, inContent(200)) },
    getSpacePDF: { expect: inst(200, inContent(200)) },
    getSitePDF: { expect: inContent(200) },

    // --- Integrations (features/integrations/policy.ts): the fixture integration is private, so outsiders do not
    // see it; members see it; admins of its organization publish, install and manage it; an installation sees
    // and changes its own installation only, and renews its own token.
    listIntegrations: {
      expect: inst(200, anyUser(200)),
      check: (who, res, f) => {
        const names = (res.body.items as { name: string }[]).map((item) => item.name);
        assert.equal(names.includes(f.integrationName), ['guest', 'reader', 'installation'].includes(who), `${who}: ${JSON.stringify(names)}`);
      },
    },
    getIntegrationByName: { expect: inst(200, inOrganization(200, 200)) },
    publishIntegration: { body: (f) => integrationManifest(f), expect: inOrganization(403, 403) },
    unpublishIntegration: { own: async (f) => ({ integrationName: await newIntegration(f) }), expect: deleteInOrganization(403, 403) },
    listIntegrationInstallations: { expect: inst(200, inOrganization(200, 200)), check: lists((f) => f.installationId, ['installation']) },
    installIntegration: { own: async (f) => ({ integrationName: await newIntegration(f) }), body: (f) => ({ organization: f.organizationId }), expect: inOrganization(403, 403) },
    getIntegrationInstallationById: { expect: inst(200, inOrganization(404, 404)) },
    updateIntegrationInstallation: { body: () => ({ externalIds: ['from-the-table'] }), expect: inst(200, inOrganization(404, 404)) },
    uninstallIntegration: {
      own: async (f) => {
        const integrationName = await newIntegration(f);
        return { integrationName, installationId: (await setup('POST', `/v1/integrations/${integrationName}/installations`, { organization: f.organizationId })).id };
      },
      expect: deleteInOrganization(204, 204),
    },
    installIntegrationOnSpace: { body: (f) => ({ space: f.spaceId }), expect: inOrganization(404, 404) },
    installIntegrationOnSite: { body: (f) => ({ siteId: f.siteId }), expect: inOrganization(404, 404) },
    createIntegrationInstallationToken: { expect: inst(200, inOrganization(403, 403)) },
    listIntegrationSpaceInstallations: { expect: inst(200, inOrganization(200, 200)) },
    listIntegrationSiteInstallations: { expect: inst(200, inOrganization(200, 200)) },
    // One installation's spaces and sites: seen by whoever sees the installation (its organization's admins and
    // the installation itself), changed and left by those who may change it.
    listIntegrationInstallationSpaces: { expect: inst(200, inOrganization(404, 404)) },
    getIntegrationSpaceInstallation: { expect: inst(200, inOrganization(404, 404)) },
    updateIntegrationSpaceInstallation: { body: () => ({ externalIds: ['from-the-table'] }), expect: inst(200, inOrganization(404, 404)) },
    uninstallIntegrationFromSpace: {
      own: async (f) => {
        const integrationName = await newIntegration(f);
        const installationId = (await setup('POST', `/v1/integrations/${integrationName}/installations`, { organization: f.organizationId })).id;
        await setup('POST', `/v1/integrations/${integrationName}/installations/${installationId}/spaces`, { space: f.spaceId });
        return { integrationName, installationId };
      },
      expect: inst(204, deleteInOrganization(204, 204)),
    },
    listIntegrationInstallationSites: { expect: inst(200, inOrganization(404, 404)) },
    getIntegrationSiteInstallation: { expect: inst(200, inOrganization(404, 404)) },
    updateIntegrationSiteInstallation: { body: () => ({ externalIds: ['from-the-table'] }), expect: inst(200, inOrganization(404, 404)) },
    uninstallIntegrationFromSite: {
      own: async (f) => {
        const integrationName = await newIntegration(f);
        const installationId = (await setup('POST', `/v1/integrations/${integrationName}/installations`, { organization: f.organizationId })).id;
        await setup('POST', `/v1/integrations/${integrationName}/installations/${installationId}/sites`, { siteId: f.siteId });
        return { integrationName, installationId };
      },
      expect: inst(204, deleteInOrganization(204, 204)),
    },
    // What is installed where (features/integrations/installed.ts): members of the organization see which
    // integrations it may use and has installed; an installation's configuration is for its admins; the
    // integrations of a space or site for whoever sees it. An installation token sees its own installation.
    listOrganizationIntegrations: {
      expect: inst(200, inOrganization(200, 200)),
      check: (who, res, f) => {
        const names = (res.body.items as { name: string }[]).map((item) => item.name);
        assert.ok(names.includes(f.integrationName), `${who}: ${JSON.stringify(names)}`);
      },
    },
    getOrganizationIntegrationStatus: { expect: inOrganization(200, 200) },
    listOrganizationIntegrationsStatus: { expect: inst(200, inOrganization(200, 200)) },
    listOrganizationInstallations: { expect: inOrganization(403, 403) },
    listSpaceIntegrations: { expect: inContent(200) },
    listSpaceIntegrationsBlocks: { expect: inContent(200) },
    // A name that never resolves: the embed is a link to it, with nothing fetched.
    // --- URLs (features/urls): an app URL is read as its caller may read what it names; a published URL
    // as a visitor of the site would (a public site: whoever is signed in), not as the caller.
    getContentByUrl: { query: (f) => `url=${encodeURIComponent(`${t.app.ctx.config.publicUrl}/app/s/${f.spaceId}/`)}`, expect: inContent(200) },
    getPublishedContentByUrl: { own: newPublishedSite, query: (f) => `url=${encodeURIComponent(publishedUrl(f))}`, expect: anyUser(200) },
    resolvePublishedContentByUrl: { own: newPublishedSite, body: (f) => ({ url: publishedUrl(f) }), expect: anyUser(200) },
    // Computed content (features/computed-content): whoever reads the space computes from its organization's specs.
    getComputedDocument: { body: () => ({ source: { ...computedSource, props: { doc: 'operation', page: '/ping', method: 'get' } }, seed: 's' }), expect: inst(200, inContent(200)) },
    getComputedRevision: { body: () => ({ source: { ...computedSource, props: { models: true } }, seed: 's' }), expect: inst(200, inContent(200)) },
    getEmbedByUrl: { query: 'url=http%3A%2F%2Fquire.invalid%2Fpage', expect: inst(200, anyUser(200)) },
    getEmbedByUrlInSpace: { query: 'url=http%3A%2F%2Fquire.invalid%2Fpage', expect: inst(200, inContent(200)) },
    listSiteIntegrations: { expect: inContent(200) },
    // The scripts a site's pages load: whoever sees the site (features/integration-events/site-scripts.ts).
    listSiteIntegrationScripts: { expect: inContent(200) },
    // A task is the integration's own: only a token of one of its installations queues one.
    queueIntegrationTask: { body: () => ({ task: { from: 'the table' } }), expect: inst(204, inOrganization(403, 403)) },
    setIntegrationDevelopmentMode: { body: () => ({ tunnelUrl: 'https://tunnel.example.com/dev' }), expect: inOrganization(403, 403) },
    disableIntegrationDevelopmentMode: { expect: inOrganization(403, 403) },

    // --- Integration events and UI (features/integration-events/policy.ts): only the owner organization's admins
    // read the events (the official operations declare no 403: anyone else gets 404); members where it is
    // installed render its UI (the fixture's script answers no render: 502); an installation token acts for no
    // person, so it does not render.
    listIntegrationEvents: { expect: { ...inOrganization(404, 404), installation: 404 } },
    getIntegrationEvent: { expect: { ...inOrganization(404, 404), installation: 404 } },
    // An installation's own log (Quire's): its organization's admins and the owner's; no token acts for a person here.
    listIntegrationInstallationEvents: { expect: inOrganization(404, 404) },
    getIntegrationInstallationEvent: { expect: inOrganization(404, 404) },
    retryIntegrationInstallationEvent: { expect: inOrganization(404, 404) },
    renderIntegrationUIWithGet: {
      query: `request=${LZString.compressToEncodedURIComponent(JSON.stringify({ componentId: 'view', props: {}, context: { type: 'configuration_account' } }))}`,
      expect: inOrganization(502, 502),
    },
    renderIntegrationUIWithPost: { body: () => ({ componentId: 'view', props: {}, context: { type: 'configuration_account' } }), expect: inOrganization(502, 502) },
  };

  before(async () => {
    t = await startServer();
    const doc = await t.api('GET', '/v1/openapi.json', { token: null });
    assert.equal(doc.status, 200);
    for (const [path, item] of Object.entries<Record<string, { operationId?: string; requestBody?: unknown; responses?: object; security?: unknown[] }>>(doc.body.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op?.operationId) continue;
        operations.set(op.operationId, { method: method.toUpperCase(), path, hasBody: op.requestBody !== undefined, statuses: Object.keys(op.responses ?? {}), public: op.security?.length === 0 });
      }
    }

    outsider = await t.outsider();
    const guest = await t.member(null);
    reader = await t.member('read');
    const colleague = await t.member('read');
    tokens = { anonymous: null, outsider: outsider.token, guest: guest.token, reader: reader.token, installation: null };

    // One organization's worth of real objects, built as its admin. The bootstrap organization gives members
    // `read` by default, and new collections and spaces inherit it: the reader holds exactly `read` on them.
    const org = t.org.id;
    const collection = await buildCollection(t, { title: 'Handbook' });
    const space = await buildSpace(t, { title: 'Guide', parent: collection.id });
    assert.equal(space.defaultLevel, 'inherit');
    assert.equal((await setup('GET', `/v1/orgs/${org}`)).defaultRole, 'read');

    // A page, a reusable content and a file reach the space's content through a merged change request; another one stays open.
    const first = await buildChangeRequest(t, space.id, { subject: 'First pages' });
    await writeContent(t, space.id, first.id, [
      { operation: 'insert_page', title: 'Welcome', document: markdown('Hello.') },
      { operation: 'insert_reusable_content', reusableContent: 'snippet', title: 'Snippet', document: markdown('Shared words.') },
      { operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('notes').toString('base64') }] },
    ]);
    await mergeChangeRequest(t, space.id, first.id);
    const cr = await buildChangeRequest(t, space.id, { subject: 'Open edits' });
    await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: 'Draft', document: markdown('Soon.') }]);
    const revision = await setup('GET', `/v1/spaces/${space.id}/content`);
    const page = revision.pages.find((p: { title: string }) => p.title === 'Welcome');
    const file = revision.files[0];

    const team = await buildTeam(t, { title: 'Writers', members: [colleague.userId] });
    for (const target of [`/v1/spaces/${space.id}`, `/v1/collections/${collection.id}`]) {
      await setup('PATCH', `${target}/permissions/users/${colleague.userId}`, { role: 'edit' });
      await setup('PATCH', `${target}/permissions/teams/${team.id}`, { role: 'comment' });
    }

    fixture = {
      organizationId: org,
      otherOrganizationId: outsider.organizationId,
      // Callers here are refused before an event is looked up: any id of the right shape will do.
      auditEventId: '00000000-0000-4000-8000-000000000000',
      userId: colleague.userId,
      teamId: team.id,
      collectionId: collection.id,
      spaceId: space.id,
      changeRequestId: cr.id,
      pageId: page.id,
      '*': page.path,
      fileId: file.id,
      revisionId: revision.id,
      reusableContentId: 'snippet',
      documentId: page.documentId,
      reviewId: '',
      subdomain: 'auth-table',
      emailDomain: 'quire.test',
      commentId: '',
      commentReplyId: '',
      crCommentId: '',
      crCommentReplyId: '',
      siteId: '',
      siteSpaceId: '',
      siteSectionId: '',
      siteSectionGroupId: '',
      shareLinkId: '',
      siteRedirectId: '',
      siteQuestionId: '',
      siteQuestionAnswerId: '',
      specSlug: 'api',
      specId: '',
      versionId: '',
      translationId: '',
      glossaryEntryId: '',
      importRunId: '',
      samlProviderId: '',
      oidcProviderId: '',
      domainId: '',
      identityId: '',
      inviteId: '',
      sessionId: '',
      tokenId: '',
      notificationId: '',
      token: '',
      integrationName: 'table-integration',
      installationId: '',
      eventId: '',
      fontId: '',
      fontFile: '',
      siteExternalLinkId: '',
      hostname: 'docs.authorization.example',
      accountName: 'octo',
      repositoryName: 'docs',
      projectId: '42',
    };
    const reviewer = await t.member('read');
    await setup('PATCH', `/v1/spaces/${space.id}/permissions/users/${reviewer.userId}`, { role: 'review' });
    const review = await t.api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/reviews`, { token: reviewer.token, body: { status: 'approved' } });
    assert.equal(review.status, 201, JSON.stringify(review.body));
    fixture.reviewId = review.body.id;
    await setup('PATCH', `/v1/orgs/${org}`, { hostname: fixture.subdomain });
    fixture.commentId = await newComment(fixture, false);
    fixture.commentReplyId = await newReply(fixture, false);
    fixture.crCommentId = await newComment(fixture, true);
    fixture.crCommentReplyId = await newReply(fixture, true);
    const site = await setup('POST', sites(fixture), { title: 'Public docs' });
    const section = await setup('POST', `${sites(fixture)}/${site.id}/sections`, { spaceId: space.id, title: 'Guide' });
    const group = await setup('POST', `${sites(fixture)}/${site.id}/section-groups`, { title: 'Products', sections: [section.id] });
    fixture.siteId = site.id;
    fixture.siteSectionId = section.id;
    fixture.siteSpaceId = section.siteSpaces[0].id;
    fixture.siteSectionGroupId = group.id;
    fixture.shareLinkId = await newShareLink(fixture);
    fixture.siteExternalLinkId = await newExternalLink(fixture);
    const hostnameSite = await setup('POST', sites(fixture), { title: 'Docs at a hostname', spaces: [space.id] });
    await setup('PATCH', `${sites(fixture)}/${hostnameSite.id}`, { hostname: fixture.hostname });
    fixture.siteRedirectId = (await setup('POST', `${sites(fixture)}/${site.id}/redirects`, { source: '/auth-old', destination: { kind: 'site-section', siteSectionId: section.id } })).id;
    const asked = new Date().toISOString();
    fixture.siteQuestionId = await recordQuestion(t.db, { id: 'auth-question', site_id: site.id, text_key: 'how do i publish', question: 'How do I publish', type: 'how-to', created_at: asked, asked_at: asked });
    fixture.siteQuestionAnswerId = 'auth-answer';
    await insertAnswer(
      t.db,
      {
        id: 'auth-answer', site_id: site.id, question_id: fixture.siteQuestionId, thread_id: 'auth-answer', previous_id: null, raw: 'How do I publish?', text: 'How do I publish',
        response: JSON.stringify({ object: 'document', data: {}, nodes: [] }), response_id: 'auth-response', language: 'en', answered: 'yes', helpfulness: 'high',
        relevance: 'relevant', channel_type: 'site', rating: null, created_at: asked, updated_at: asked,
      },
      [{ answer_id: 'auth-answer', position: 0, space_id: fixture.spaceId, page_id: fixture.pageId, revision_id: 'r', title: 'Welcome', weight: 1 }],
    );
    const woff2 = Buffer.concat([Buffer.from('wOF2', 'latin1'), Buffer.from([0, 1, 0, 0]), Buffer.alloc(56, 1)]);
    fixture.fontFile = (await setup('POST', `/v1/spaces/${space.id}/files/uploads?name=brand.woff2`, woff2)).id;
    fixture.fontId = await newFont(fixture);
    const spec = await setup('POST', `/v1/orgs/${org}/openapi`, { slug: fixture.specSlug, source: { text: specText() } });
    await t.app.jobs.runDue();
    fixture.specId = spec.id;
    fixture.versionId = (await setup('GET', `/v1/orgs/${org}/openapi/${fixture.specSlug}`)).lastVersion;
    fixture.translationId = await newTranslation(fixture);
    await setup('PUT', `/v1/orgs/${org}/translations-glossary`, { operations: [{ type: 'insert', translations: { en: 'space', fr: 'espace' } }] });
    fixture.glossaryEntryId = (await setup('GET', `/v1/orgs/${org}/translations-glossary`)).items[0].id;
    fixture.importRunId = await newImportRun(fixture);
    fixture.samlProviderId = await newSamlProvider(fixture);
    fixture.oidcProviderId = await newOidcProvider(fixture);
    fixture.inviteId = await newInvite(fixture);
    fixture.token = await newLinkToken(fixture);
    fixture.tokenId = (await setup('POST', '/v1/user/tokens', { label: 'Admin token' })).id;
    fixture.notificationId = 'no-such-notification';
    const adminLink = await createLink(t.app.ctx, t.db, { kind: 'first-start', userId: t.admin.userId });
    const opened = await t.api('POST', `/v1/auth/links/${adminLink.url.slice(adminLink.url.lastIndexOf('/') + 1)}`, { token: null, body: { password: 'admin password' } });
    assert.equal(opened.status, 200);
    fixture.sessionId = (await t.db.selectFrom('sessions').select('id').where('user_id', '=', t.admin.userId).executeTakeFirstOrThrow()).id;

    // The integration installation: on the fixture space and site, with read scopes.
    await setup('POST', `/v1/integrations/${fixture.integrationName}`, integrationManifest(fixture));
    const installation = await setup('POST', `/v1/integrations/${fixture.integrationName}/installations`, { organization: org });
    fixture.installationId = installation.id;
    const installed = `/v1/integrations/${fixture.integrationName}/installations/${installation.id}`;
    await setup('POST', `${installed}/spaces`, { space: space.id });
    await setup('POST', `${installed}/sites`, { siteId: site.id });
    tokens.installation = (await setup('POST', `${installed}/tokens`)).token;
    // Installing wrote installation_setup to the outbox; the worker turns it into the integration's event.
    await t.app.jobs.runDue();
    fixture.eventId = ((await setup('GET', `/v1/integrations/${fixture.integrationName}/events`)).items as { id: string }[])[0]!.id;
  });
  after(() => t.close());

  /**
   * Runs one operation of the table as `who`, on the shared fixtures or on the row's own objects; answers the
   * response and the parameters it was called with.
   */
  async function run(operationId: string, who: Who, overrides: { body?: unknown; token?: string } = {}): Promise<{ res: ApiResponse; f: Fixture }> {
    const op = operations.get(operationId);
    const row = table[operationId];
    assert.ok(op, `${operationId} is not in the OpenAPI document`);
    assert.ok(row, `${operationId} has no row in the table`);
    const shared: Fixture = { ...fixture, ...row.at?.(fixture) };
    const f: Fixture = { ...shared, ...(row.own ? await row.own(shared) : {}) };
    const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = f[name as keyof Fixture];
      assert.ok(value, `no fixture for the path parameter {${name}} of ${operationId}`);
      return name === '*' ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
    });
    const body = overrides.body ?? row.body?.(f);
    const query = typeof row.query === 'function' ? row.query(f) : row.query;
    const res = await t.api(op.method as 'GET', `/v1${path}${query ? `?${query}` : ''}`, { token: overrides.token ?? tokens[who], ...(body === undefined ? {} : { body }) });
    return { res, f };
  }

  test('every operation of the OpenAPI document has a row, and every row an operation', () => {
    const declared = [...operations.keys()].sort();
    const listed = Object.keys(table).sort();
    assert.deepEqual(
      declared.filter((id) => !(id in table)),
      [],
      'operations without a row: add each to the table of test/authorization.test.ts with the status every caller must get',
    );
    assert.deepEqual(
      listed.filter((id) => !operations.has(id)),
      [],
      'rows naming no operation of the document',
    );
  });

  for (const [operationId, row] of Object.entries(table)) {
    const expected: Expect = { ...row.expect, installation: row.expect.installation ?? 403 };
    test(`${operationId}: ${CALLERS.map((who) => `${who} ${expected[who]}`).join(', ')}`, async () => {
      const op = operations.get(operationId);
      assert.ok(op, `${operationId} is not in the OpenAPI document`);
      assert.equal(row.body !== undefined, op.hasBody, op.hasBody ? 'the operation takes a body: give the row a valid one' : 'the operation takes no body');
      const got = {} as Expect;
      const bodies: Record<string, unknown> = {};
      for (const who of CALLERS) {
        const { res, f } = await run(operationId, who);
        got[who] = res.status;
        bodies[who] = res.body;
        if (res.status >= 400) assertError(res, res.status);
        if (res.status === 204) assert.equal(res.body, undefined, `${who}: 204 has no body`);
        if (res.status < 300) row.check?.(who, res, f);
        if (!(operationId === 'getApiInformation' || res.status === 401)) {
          assert.ok(op.statuses.includes(String(res.status)), `${who}: ${res.status} is not among the statuses the document declares for ${operationId} (${op.statuses.join(', ')})`);
        }
      }
      assert.deepEqual(got, expected, `${op.method} ${op.path}: ${JSON.stringify(bodies)}`);
    });
  }

  test("a site's read token (the apiToken of a resolved URL) answers as a reader in the content reads of the site's space, and is refused everywhere else", async () => {
    const { siteId } = await newPublishedSite(fixture);
    const resolved = await t.api('POST', '/v1/urls/published', { token: reader.token, body: { url: publishedUrl({ ...fixture, siteId }) } });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    const token = resolved.body.apiToken as string;
    const wrong: string[] = [];
    for (const [operationId, row] of Object.entries(table)) {
      // Operations without a token (signing in, the API's information) never look at one.
      if (operations.get(operationId)?.public) continue;
      // The fixture site is not the token's: a token reads its own site only (test/e2e/content-by-url.test.ts).
      const expected = operationId === 'getPublishedContentSite' ? 404 : SITE_READ_OPERATIONS.has(operationId) ? row.expect.reader : 403;
      const { res } = await run(operationId, 'reader', { token });
      if (res.status !== expected) wrong.push(`${operationId}: ${res.status} (expected ${expected}) ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    assert.deepEqual(wrong, []);
  });

  /**
   * The flags a reader is shown must say what the table found: each flag names the operations it allows, and
   * a true flag means each of them succeeds, a false one that each is refused. null marks a flag no operation
   * of this server acts on (integrations, billing, invite links, Git Sync): nothing to check it against, but
   * it must be named, so a new flag cannot go unchecked.
   */
  type Probe = string | { operationId: string; body: (f: Fixture) => unknown };
  type FlagProbes = Record<string, Probe[] | null>;

  async function assertFlagsMatch(object: string, permissions: Record<string, boolean>, probes: FlagProbes) {
    assert.deepEqual(Object.keys(permissions).sort(), Object.keys(probes).sort(), `the ${object} flags this test knows`);
    for (const [flag, list] of Object.entries(probes)) {
      const claimed = permissions[flag];
      assert.equal(typeof claimed, 'boolean', `${object}.permissions.${flag}`);
      if (list === null) continue;
      for (const probe of list) {
        const operationId = typeof probe === 'string' ? probe : probe.operationId;
        const { res } = await run(operationId, 'reader', typeof probe === 'string' ? {} : { body: probe.body(fixture) });
        const allowed = res.status < 300;
        assert.ok(allowed || res.status === 403 || res.status === 404, `${operationId}: ${res.status} ${JSON.stringify(res.body)}`);
        assert.equal(claimed, allowed, `${object}.permissions.${flag} is ${claimed}, but ${operationId} answered ${res.status}`);
      }
    }
  }

  test("a reader's permissions flags on the space, collection, organization, team, comment and reply match what it can do", async () => {
    const as = (path: string) => t.api('GET', path, { token: reader.token }).then((res) => (assert.equal(res.status, 200, path), res.body.permissions));
    const f = fixture;

    await assertFlagsMatch('space', await as(`/v1/spaces/${f.spaceId}`), {
      view: ['getSpaceById', 'getCurrentRevision'],
      access: ['getSpaceById'],
      comment: ['postCommentInSpace', 'postCommentInChangeRequest'],
      edit: ['createChangeRequest', 'updateChangeRequestContent', 'updateChangeRequestById', 'applyTemplateToSpace'],
      review: ['mergeChangeRequest'],
      merge: ['mergeChangeRequest'],
      admin: ['updateSpaceById', 'deleteSpaceById', 'inviteToSpace'],
      viewInviteLinks: null,
      triggerGitSync: [
        { operationId: 'importGitRepository', body: () => ({ url: 'https://git.example.com/docs.git', ref: 'refs/heads/main' }) },
        { operationId: 'exportToGitRepository', body: () => ({ url: 'https://git.example.com/docs.git', ref: 'refs/heads/main', commitMessage: 'Export' }) },
      ],
      installIntegration: null,
    });
    await assertFlagsMatch('collection', await as(`/v1/collections/${f.collectionId}`), {
      view: ['getCollectionById', 'listSpacesInCollectionById'],
      admin: ['updateCollectionById', 'deleteCollectionById', 'inviteToCollection'],
      create: [{ operationId: 'createSpace', body: (at) => ({ title: 'In the collection', parent: at.collectionId }) }],
      viewInviteLinks: null,
    });
    await assertFlagsMatch('organization', await as(`/v1/orgs/${f.organizationId}`), {
      view: ['getOrganizationById'],
      admin: ['updateOrganizationById', 'inviteUsersToOrganization', 'setUserAsSSOMemberForOrganization'],
      // Owning a team is a standing, not an operation; a reader owns none.
      ownTeam: null,
      createContent: ['createSpace', 'createCollection'],
      createOpenAPISpec: [{ operationId: 'createOpenAPISpec', body: () => ({ slug: 'probe', source: { text: specText() } }) }],
      ingestConversations: null,
      viewBilling: null,
      listMembers: ['listMembersInOrganizationById'],
      listTeams: ['listTeamsInOrganizationById'],
      listIntegrations: null,
      listInstallations: null,
      installIntegration: null,
    });
    await assertFlagsMatch('openapi-spec', await as(`/v1/orgs/${f.organizationId}/openapi/${f.specSlug}`), {
      view: ['getOpenAPISpecBySlug', 'listOpenAPISpecVersions', 'getLatestOpenAPISpecVersionContent'],
      edit: [{ operationId: 'updateOpenAPISpecBySlug', body: () => ({ visibility: 'public' }) }, { operationId: 'createOrUpdateOpenAPISpecBySlug', body: () => ({ source: { text: specText() } }) }],
    });
    await assertFlagsMatch('translation', await as(`/v1/orgs/${f.organizationId}/translations/${f.translationId}`), {
      view: ['getTranslation', 'listTranslations', 'listTranslationPages'],
      edit: ['updateTranslation', 'runTranslation'],
    });
    await assertFlagsMatch('team', await as(`/v1/orgs/${f.organizationId}/teams/${f.teamId}`), {
      view: ['getTeamInOrganizationById', 'listTeamMembersInOrganizationById'],
      admin: ['updateTeamInOrganizationById', 'updateMembersInOrganizationTeam'],
    });
    await assertFlagsMatch('comment', await as(`/v1/spaces/${f.spaceId}/comments/${f.commentId}`), {
      view: ['getCommentInSpace', 'listCommentRepliesInSpace'],
      edit: ['updateCommentInSpace'],
      reply: ['postCommentReplyInSpace'],
      delete: ['deleteCommentInSpace'],
    });
    await assertFlagsMatch('comment reply', await as(`/v1/spaces/${f.spaceId}/comments/${f.commentId}/replies/${f.commentReplyId}`), {
      view: ['getCommentReplyInSpace'],
      edit: ['updateCommentReplyInSpace'],
      reply: ['postCommentReplyInSpace'],
      delete: ['deleteCommentReplyInSpace'],
    });
  });

  test("the outsider cannot reach into the organization through its own organization's operations", async () => {
    const f = fixture;
    const as = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown) =>
      t.api(method, `/v1${path}`, { token: outsider.token, ...(body === undefined ? {} : { body }) });
    const theirs = `/orgs/${outsider.organizationId}`;
    const made = async (res: Promise<ApiResponse>) => {
      const done = await res;
      assert.ok(done.status < 300, JSON.stringify(done.body));
      return done.body.id as string;
    };
    const space = await made(as('POST', `${theirs}/spaces`, { title: 'Theirs' }));
    const collection = await made(as('POST', `${theirs}/collections`, { title: 'Theirs' }));
    const team = await made(as('PUT', `${theirs}/teams`, { title: 'Theirs' }));
    const colleague = (await t.api('GET', `/v1/orgs/${f.organizationId}/members/${f.userId}`)).body;

    // Ids of this organization, named in the bodies and paths of the outsider's own objects: each is refused,
    // answered as if it did not exist.
    const attempts: [string, () => Promise<ApiResponse>, number][] = [
      ['a space of theirs in our collection', () => as('POST', `${theirs}/spaces`, { title: 'x', parent: f.collectionId }), 400],
      ['a collection of theirs in our collection', () => as('POST', `${theirs}/collections`, { title: 'x', parent: f.collectionId }), 400],
      ['their space moved into our collection', () => as('POST', `/spaces/${space}/move`, { parent: f.collectionId }), 400],
      ['their collection moved into our collection', () => as('POST', `/collections/${collection}/move`, { parent: f.collectionId }), 400],
      ['their space placed next to ours', () => as('POST', `/spaces/${space}/move`, { position: { before: { type: 'space', space: f.spaceId } } }), 400],
      ['their space transferred to us', () => as('POST', `/spaces/${space}/transfer`, { organization: f.organizationId }), 404],
      ['their collection transferred to us', () => as('POST', `/collections/${collection}/transfer`, { organization: f.organizationId }), 404],
      ['our member invited to their space', () => as('POST', `/spaces/${space}/permissions`, { role: 'admin', users: [f.userId] }), 404],
      ['our team invited to their space', () => as('POST', `/spaces/${space}/permissions`, { role: 'admin', teams: [f.teamId] }), 404],
      ['our member granted their space', () => as('PATCH', `/spaces/${space}/permissions/users/${f.userId}`, { role: 'admin' }), 404],
      ['our member in a new team of theirs', () => as('PUT', `${theirs}/teams`, { title: 'x', members: [f.userId] }), 400],
      ['our member added by e-mail to their team', () => as('PUT', `${theirs}/teams/${team}/members`, { add: [colleague.user.email] }), 400],
      ['our member put in their team', () => as('PUT', `${theirs}/teams/${team}/members/${f.userId}`, { role: 'owner' }), 404],
      ['our member given a role in their organization', () => as('PATCH', `${theirs}/members/${f.userId}`, { role: 'admin' }), 404],
      ['our revision read through their space', () => as('GET', `/spaces/${space}/revisions/${f.revisionId}`), 404],
      ['our change request read through their space', () => as('GET', `/spaces/${space}/change-requests/${f.changeRequestId}`), 404],
      ['our comment read through their space', () => as('GET', `/spaces/${space}/comments/${f.commentId}`), 404],
      ['our page read through their space', () => as('GET', `/spaces/${space}/content/page/${f.pageId}`), 404],
      ['our file read through their space', () => as('GET', `/spaces/${space}/content/files/${f.fileId}`), 404],
    ];
    for (const [what, attempt, status] of attempts) {
      const res = await attempt();
      assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
      assertError(res, status);
    }

    // And nothing moved: our objects are where they were, our member has the role it had.
    assert.equal((await t.api('GET', `/v1/spaces/${f.spaceId}`)).body.parent, f.collectionId);
    assert.equal((await t.api('GET', `/v1/collections/${f.collectionId}`)).body.organization, f.organizationId);
    assert.equal((await t.api('GET', `/v1/orgs/${f.organizationId}/members/${f.userId}`)).body.role, 'read');
    assert.equal((await as('GET', `${theirs}/teams/${team}`)).body.members, 0);
  });
});
