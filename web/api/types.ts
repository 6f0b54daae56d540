/*
 * The API's objects as the official client types them (type-only: nothing of @gitbook/api is bundled), and
 * the sign-in routes' shapes from the contract of /v1/auth (docs/web-app.md).
 */
export type {
  ChangeRequest, Collection, Integration, IntegrationInstallation, OpenAPISpec, Organization, OrganizationMember, RevisionFile, RevisionPage,
  RevisionPageDocument, SearchPageResult, SearchSectionResult, SearchSpaceResult, Site, Space, User,
} from '@gitbook/api';
import type { Revision as OfficialRevision, Space as OfficialSpace } from '@gitbook/api';

export type Revision = OfficialRevision;

export interface SessionUser {
  id: string;
  displayName: string;
  email?: string;
  photoURL?: string;
}

export interface SignedIn {
  user: SessionUser;
  csrfToken: string;
}

export interface AuthLink {
  kind: 'invite' | 'reset' | 'first-start';
  email: string;
  organization?: { id: string; title: string };
  role?: string;
}

/** What an organization's invite link is for (GET /v1/auth/invite-links/{organizationId}/{inviteId}). */
export interface InviteLinkInfo {
  organization: { id: string; title: string };
  role: string | null;
}

export interface IdentityProvider {
  id: string;
  type: 'saml' | 'oidc';
  label: string;
  organizationId: string;
  signInUrl: string;
}

export interface UserToken {
  id: string;
  label: string;
  createdAt: string;
  lastUsedAt?: string | null;
  expiresAt?: string | null;
}

export interface CreatedUserToken extends UserToken {
  token: string;
}

export interface BrowserSessionInfo {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent?: string | null;
  current: boolean;
}

/** Quire's translation answer (the official TranslationSettings: title, languages, target spaces). */
export interface TranslationSettings {
  id: string;
  title: string;
  languages: string[];
  status: string;
  source?: { space: string; language: string };
  targets: { language: string; space: string }[];
}

/** A space in the organization's trash (listSpacesInTrash, a Quire extension): the official Space, who deleted it, until when it can be restored. */
export interface TrashedSpace {
  object: 'trashed-space';
  space: OfficialSpace;
  deletedBy: SessionUser | null;
  restorableUntil: string;
}

/** A team as the organization's team routes answer it (the official OrganizationTeam). */
export interface OrganizationTeam {
  id: string;
  title: string;
  members: number;
  createdAt: string;
}
