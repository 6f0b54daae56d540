// Columns holding one of a known list of values are typed with that list's union, defined once with the list.
import type { DefaultLevel, Role } from '../features/access/roles.ts';
import type { SpaceEditMode, SpaceVisibility, TranslationLanguage } from '../features/spaces/schemas.ts';
import type { Generated, Kysely, Transaction } from 'kysely';

/**
 * Table types as the migrations create them. Both dialects store the same values: timestamps are ISO 8601
 * strings in UTC, booleans are 0/1 integers, structured values are JSON text.
 */
export interface UsersTable {
  id: string;
  display_name: string;
  email: string | null;
  photo_url: string | null;
  created_at: string;
  /** When the owner of the address proved it (a link mailed to it, or a provider of a verified domain); null: not yet. */
  email_verified_at: string | null;
}

export interface OrganizationsTable {
  id: string;
  title: string;
  hostname: string | null;
  email_domains: string; // JSON string[]
  default_role: Role | null;
  default_content: string | null; // JSON { type: 'site', site }
  type: string;
  use_case: string | null;
  invite_links: number;
  sso: number;
  ai: number;
  logo_url: string | null;
  merge_rules: string; // JSON
  created_at: string;
  updated_at: string;
}

export interface MembersTable {
  organization_id: string;
  user_id: string;
  role: Role | null; // null for guests
  disabled: number;
  sso: number;
  joined_at: string;
  last_seen_at: string | null;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  label: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  expires_at: string | null;
  /** The one organization the token reaches, when it was minted by a session an identity provider opened. */
  organization_id: string | null;
}

export interface CollectionsTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  default_level: DefaultLevel; // a role, 'inherit', or null (no access for members)
  position: string;
  created_at: string;
  updated_at: string;
}

export interface SpacesTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  emoji: string;
  icon_url: string | null;
  visibility: SpaceVisibility;
  edit_mode: SpaceEditMode;
  default_level: DefaultLevel;
  language: TranslationLanguage | null;
  merge_rules: string; // JSON
  revision_id: string;
  position: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Who put the space in the trash (for an integration, who installed it); null for spaces deleted before migration 0030. */
  deleted_by: string | null;
  change_request_counter: number;
}

export interface ChangeRequestsTable {
  id: string; // also the id of its branch
  space_id: string;
  number: number;
  status: string; // draft | open | archived | merged
  subject: string;
  description: string | null; // the JSON document; null when there is none
  agent_task_id: string | null;
  created_by: string | null;
  revision_initial: string;
  revision_merged_ancestor: string | null;
  revision_merged: string | null;
  created_at: string;
  updated_at: string;
  merged_at: string | null;
}

export interface BranchesTable {
  id: string; // the space id for its main branch, the change request id for a change request's
  space_id: string;
  head_seq: number;
  head_revision_id: string;
  base_branch_id: string | null; // change requests: the main branch they overlay
  base_seq: number | null;
  created_at: string;
}

export interface RevisionsTable {
  id: string;
  space_id: string;
  branch_id: string;
  seq: number;
  base_branch_id: string | null;
  base_seq: number | null;
  parents: string; // JSON string[]
  type: string;
  variables: string; // JSON Record<string, string>
  merged_from: string | null; // change request id, for merge revisions
  created_by: string | null;
  created_at: string;
}

export interface PageVersionsTable {
  branch_id: string;
  page_id: string;
  from_seq: number;
  to_seq: number | null;
  deleted: number;
  parent_id: string | null;
  position: string;
  kind: string; // document | group | link
  title: string;
  slug: string;
  document_id: string | null;
  attributes: string; // JSON: emoji, icon, description, hidden, noIndex, noRobotsIndex, layout, cover, target, …
  created_at: string;
  updated_at: string;
}

export interface FileVersionsTable {
  branch_id: string;
  file_id: string;
  from_seq: number;
  to_seq: number | null;
  deleted: number;
  name: string;
  content_type: string;
  size: number;
  blob_hash: string;
  width: number | null;
  height: number | null;
  created_at: string;
}

export interface DocumentsTable {
  id: string;
  body: string;
  created_at: string;
  /** 1 once the document's links are in document_links (0: written before links were extracted). */
  links_extracted: Generated<number>;
}

export interface DocumentLinksTable {
  document_id: string;
  position: number;
  kind: 'page' | 'file' | 'anchor' | 'url';
  target: string;
  anchor: string | null;
  space_id: string | null;
  relation: 'reference' | 'dependsOn';
}

export interface LinkChecksTable {
  url: string;
  status: 'ok' | 'broken';
  http_status: number | null;
  error: string | null;
  checked_at: string;
}

export interface BlobsTable {
  hash: string;
  size: number;
  content_type: string | null; // null only for rows older than migration 0003
  created_at: string;
}

export interface JobsTable {
  id: string;
  type: string;
  payload: string; // JSON
  run_at: string;
  attempts: number;
  locked_until: string | null;
  /** `host:pid` of the process whose lease locked_until is (migration 0044). */
  locked_by: string | null;
  last_error: string | null;
  created_at: string;
}

export interface EventsTable {
  id: string;
  type: string;
  organization_id: string | null;
  payload: string; // JSON
  created_at: string;
  processed_at: string | null;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** What a server records about itself for the commands run beside it (platform/server-settings.ts). */
export interface ServerSettingsTable {
  name: string;
  value: string;
  updated_at: string;
}

export interface CommentsTable {
  id: string;
  space_id: string;
  change_request_id: string | null; // null: a comment on the space's own content
  author_id: string;
  body: string; // JSON document
  status: string; // open | resolved
  revision_id: string; // where the target was when the comment was posted
  page_id: string | null;
  page_title: string | null; // the page as it was when the comment was posted (to tell `outdated`)
  page_path: string | null;
  page_document_id: string | null;
  node_id: string | null;
  node_preview: string | null;
  table_cell: string | null; // JSON { record, definition }
  posted_at: string;
  edited_at: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
}

export interface CommentRepliesTable {
  id: string;
  comment_id: string;
  author_id: string;
  body: string; // JSON document
  posted_at: string;
  edited_at: string | null;
}

export interface CommentReactionsTable {
  subject_id: string; // the comment or the reply
  comment_id: string; // its thread
  emoji: string;
  user_id: string;
  reacted_at: string;
}

export interface ChangeRequestReviewsTable {
  id: string;
  change_request_id: string;
  reviewer_id: string;
  requested_by: string | null;
  status: string; // 'approved' | 'changes-requested'
  revision_id: string;
  outdated: number; // 0 | 1
  comment_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChangeRequestReviewersTable {
  change_request_id: string;
  user_id: string;
  requested_by: string;
  revision_id: string;
  created_at: string;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  kind: string;
  actor_id: string | null;
  organization_id: string;
  space_id: string;
  change_request_id: string | null;
  comment_id: string | null;
  title: string;
  app_path: string;
  read_at: string | null;
  created_at: string;
}

/** Editing together: a page's Yjs state beside its document (migration 0036). */
export interface CollaborationStatesTable {
  name: string;
  space_id: string;
  change_request_id: string | null;
  page_id: string;
  state: Uint8Array;
  document_id: string | null;
  updated_at: string;
}

export interface TeamsTable {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
  updated_at: string;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
  role: string; // owner | member
  added_at: string;
}

/** A role given to a user or a team on a space or a collection (and everything below a collection). */
export interface ContentGrantsTable {
  organization_id: string; // where it was given; it does not follow a transfer
  target_type: string; // space | collection
  target_id: string;
  subject_type: string; // user | team
  subject_id: string;
  role: string;
  created_at: string;
  updated_at: string;
}

/** A site: publishes spaces (through site-spaces) to the audience its visibility names. */
export interface SitesTable {
  id: string;
  organization_id: string;
  type: string;
  title: string;
  visibility: string; // public | unlisted | share-link | visitor-auth
  basename: string | null; // unique: the site's URL is PUBLIC_URL/sites/<basename or id>/
  hostname: string | null; // unique: a custom domain, the site then answers at <PUBLIC_URL's scheme>://<hostname>/
  proxy_origin: string | null;
  published: number;
  adaptive_content: number;
  agents_context: string;
  customization: string | null; // JSON Customization; null: the default
  adaptive_schema: string | null; // JSON Schema draft-07; null: the default
  adaptive_schema_updated_at: string | null;
  visitor_auth_secret: string; // signs visitor tokens (HS256)
  visitor_auth_jwks_url: string | null; // or their public keys are fetched from here
  visitor_auth_fallback_url: string | null; // where a visitor without a valid token is sent
  hostname_status: string | null; // what the last DNS check of `hostname` found (CustomHostnameStatus); null: never checked
  hostname_checked_at: string | null;
  agent_settings: string | null; // JSON SiteAgentSettingsInput (0054); null: the defaults
  agent_settings_updated_at: string | null;
  agent_settings_updated_by: string | null;
  created_at: string;
  updated_at: string;
}

/** A question readers asked a site's Ask, once per normalized text (0054_site_questions). */
export interface SiteQuestionsTable {
  id: string;
  site_id: string;
  text_key: string;
  question: string;
  type: string; // SiteQuestionType
  created_at: string;
  asked_at: string;
}

/** One answer a site's Ask gave (0054): the question as asked, the answer as read, how it was judged. */
export interface SiteQuestionAnswersTable {
  id: string;
  site_id: string;
  question_id: string;
  thread_id: string;
  previous_id: string | null;
  raw: string;
  text: string;
  response: string; // JSON document
  response_id: string;
  language: string;
  answered: string; // yes | partially | no
  helpfulness: string; // low | medium | high
  relevance: string; // relevant | spam | off-topic | unclear
  channel_type: string; // site | api
  rating: number | null;
  created_at: string;
  updated_at: string;
}

/** A page an answer cited (0054), in the order of its citations. */
export interface SiteQuestionAnswerSourcesTable {
  answer_id: string;
  position: number;
  space_id: string;
  page_id: string;
  revision_id: string;
  title: string;
  weight: number;
}

/** Feedback an agent left about a site's content (submitSiteAgentFeedback, 0054). */
export interface SiteAgentFeedbackTable {
  id: string;
  site_id: string;
  feedback: string;
  goal: string | null;
  url: string;
  space_id: string;
  page_id: string;
  source: string | null;
  created_by: string;
  created_at: string;
}

/** One event of an organization's audit log (features/audit): written with the action, never changed. */
export interface AuditEventsTable {
  id: string;
  organization_id: string;
  action: string;
  actor_type: string; // user | installation | system
  actor_id: string;
  actor_label: string | null;
  source: string; // ui | api | integration | workflow
  target_type: string;
  target_id: string;
  target_label: string | null;
  ip_address: string | null;
  user_agent: string | null;
  payload: string; // JSON
  created_at: string;
}

/** How long an organization's audit log keeps events, when an admin set it (otherwise 365 days). */
export interface AuditSettingsTable {
  organization_id: string;
  retention_days: number;
  updated_at: string;
}

/** An entry of a site's structure that leads elsewhere: at its top level, or in a section group. */
export interface SiteExternalLinksTable {
  id: string;
  site_id: string;
  group_id: string | null;
  title: string;
  localized_title: string | null; // JSON { <language>: <title> }
  description: string | null;
  localized_description: string | null; // JSON { <language>: <description> }
  icon: string | null;
  url: string;
  condition: string | null;
  draft: number;
  position: string; // among its level's sections, groups and links
  created_at: string;
  updated_at: string;
}

/** An organization's custom font: a family; its faces are custom_font_faces. */
export interface CustomFontsTable {
  id: string;
  organization_id: string;
  font_family: string;
  created_at: string;
  updated_at: string;
}

/** A Git Sync installation (0052): a GitHub or GitLab provider on a space or a site, and what was chosen through it. */
export interface GitSyncInstallationsTable {
  id: string;
  organization_id: string;
  provider: string; // github | gitlab
  target_key: string; // space:<id> | site:<id>
  space_id: string | null;
  site_id: string | null;
  parent_installation_id: string | null;
  sealed_token: string | null; // secret box; null: none yet (status unauthenticated)
  instance_url: string | null; // GitLab's customInstanceURL; null: GITLAB_URL
  repository_id: string | null;
  branch: string | null; // refs/heads/...
  settings: string; // JSON: projectDirectory, commitMessageTemplate, previewExternalBranches, agentInstructions, priority
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** One weight of a custom font: a WOFF or WOFF2 file of the blob store. */
export interface CustomFontFacesTable {
  font_id: string;
  weight: number;
  blob_hash: string;
  format: string; // woff2 | woff
}

export interface SiteSectionGroupsTable {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  position: string; // among the site's top-level sections and groups
  created_at: string;
}

export interface SiteSectionsTable {
  id: string;
  site_id: string;
  group_id: string | null;
  title: string;
  description: string | null;
  icon: string | null;
  path: string;
  condition: string | null;
  is_default: number;
  position: string; // among its siblings: the site's top level (with the groups), or its group
  created_at: string;
}

export interface SiteSpacesTable {
  id: string;
  site_id: string;
  section_id: string | null; // null: at the site's root (a site without sections)
  space_id: string;
  path: string;
  condition: string | null;
  is_default: number;
  position: string;
  created_at: string;
  customization: string | null; // JSON CustomizationOverride (0031); null: the site's customization as it is
}

export interface SiteShareLinksTable {
  id: string;
  site_id: string;
  name: string;
  share_key: string; // the secret of the link's URL
  active: number;
  created_at: string;
}

/** A role given on a site to a member or a team of its organization (0048_site_grants). */
export interface SiteGrantsTable {
  site_id: string;
  subject_type: string; // user | team
  subject_id: string;
  role: string;
  created_at: string;
  updated_at: string;
}

/** A path of a site that sends readers elsewhere in the site (0020_site_redirects). */
/** An upload signed by generateStorageUploadURL (0053): its key is `uploads/<id>`. */
export interface StorageUploadsTable {
  id: string;
  organization_id: string;
  /** The official StorageUploadKind: customization_font, import_file, organization_file. */
  kind: string;
  name: string;
  /** The declared type; the stored blob's is decided from the bytes. */
  content_type: string;
  /** The declared size: the upload must be exactly this long. */
  size: number;
  /** SHA-256 of the secret in the upload URL. */
  secret_hash: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  blob_hash: string | null;
  uploaded_at: string | null;
}

export interface SiteRedirectsTable {
  id: string;
  site_id: string;
  /** `/old/path`, relative to the site's URL, as the official SiteRedirectSourcePath. */
  source: string;
  /** JSON of the official SiteRedirectDestination. */
  destination: string;
  /** 1: a draft, not applied by the reader until published (0053). */
  draft: number;
  /** 1: a source ending in `*` hands the path matched by it on to the destination. */
  capture_wildcard: number;
  /** 1: 308 (public live traffic) or 307, not 302. */
  permanent: number;
  created_at: string;
  updated_at: string;
}

/** One section of a page of a space's current main-line content, as full-text search indexes it (0008_search). */
export interface SearchSectionsTable {
  id: Generated<number>;
  space_id: string;
  page_id: string;
  /** The heading's anchor; '' for the text before the first heading. */
  anchor: string;
  /** Order of the section in its page. */
  ordinal: number;
  title: string;
  heading: string;
  body: string;
  /** The hash of the text the section embeds (search/sections.ts embeddedText); null: indexed before migration 0055. */
  content_hash: string | null;
}

/** An embedding model's vector of a section's text (migration 0055). */
export interface SectionEmbeddingsTable {
  model: string;
  content_hash: string;
  /** 0: the provider refused the text. */
  dimensions: number;
  /** Little-endian float32, of length 1. */
  vector: Uint8Array;
  created_at: string;
}

/** SQLite only: a page of the page-level search index (search_pages_fts, migration 0012). */
export interface SearchPagesTable {
  id: Generated<number>;
  space_id: string;
  page_id: string;
}

/** A space whose search index the job worker rebuilds, and the last page it indexed (pages go by id). */
export interface SearchBackfillTable {
  space_id: string;
  after_page: string | null;
}

export interface SpaceGitSyncTable {
  space_id: string;
  installation_id: string;
  /** The repository's URL without credentials. */
  url: string;
  ref: string;
  provider: string; // github | gitlab | github-legacy
  tree_url: string | null;
  project_directory: string;
  commit_oid: string | null;
  operation_id: string | null;
  operation_state: string | null; // running | success | failure | timeout
  operation_direction: string | null; // import | export
  operation_started_at: string | null;
  operation_ended_at: string | null;
  operation_error: string | null;
  operation_progress: string | null; // JSON { step, done, total }
  /** JSON { operationId, endedAt, report }: the last import's report, kept across the exports after it. */
  last_import: string | null;
  updated_at: string;
  /** The repository URL with its credentials, sealed (credentials.ts); set while the space is connected (migration 0043). */
  sealed_url?: string | null;
  /** Who connected the space: syncing acts for them (their rights, as author of what it imports). */
  connected_by?: string | null;
  /** The tree of the space's folder in `commit_oid`, the last commit synced: a push that leaves it is not imported. */
  synced_tree?: string | null;
  /** The space's revision the last sync read or wrote: main moving past it is exported. */
  synced_revision_id?: string | null;
  /** A change request holding a push that conflicts with main: exporting waits until it is merged or closed. */
  paused_change_request_id?: string | null;
  /** JSON { direction, commit, revisionId, at, by }: the last sync that changed something. */
  last_sync?: string | null;
  /** Why the last automatic sync failed, until one succeeds. */
  sync_error?: string | null;
  /** The webhook's secret, sealed. */
  webhook_secret?: string | null;
  /** JSON { at, provider, event, result }: the webhook's last delivery. */
  webhook_delivery?: string | null;
  /** A sync asked for (a push, "Sync now") and not yet run. */
  sync_requested_at?: string | null;
  polled_at?: string | null;
  /** Until when a process is syncing the space. */
  lease_until?: string | null;
}

export interface SpaceGitLayoutsTable {
  space_id: string;
  /** The repository's `.gitbook.yaml` at the last import, as it was; null when it had none. */
  gitbook_yaml: string | null;
  /** JSON: file id -> the file's path in the repository, relative to the content root. */
  file_paths: string;
  updated_at: string;
}

export interface SpaceRedirectsTable {
  space_id: string;
  /** Old path of the space, without leading or trailing slash. */
  source: string;
  /** The file `.gitbook.yaml` named, relative to the content root. */
  destination: string;
  page_id: string | null;
  anchor: string | null;
  created_at: string;
}

/** An OpenAPI specification of an organization, named by its slug there (migration 0014). */
export interface OpenapiSpecsTable {
  id: string;
  organization_id: string;
  slug: string;
  source_url: string | null; // fetched by the job worker, and again on a schedule
  source_text: string | null; // or the document given as text
  visibility: 'private' | 'public';
  processing_state: 'pending' | 'progress' | 'complete';
  last_version_id: string | null;
  version_count: number;
  last_processed_at: string | null;
  last_error_code: 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR' | null;
  last_errors: string | null; // JSON [{ message, code? }] of the last failed processing
  created_at: string;
  updated_at: string;
}

/** One document of a spec as it was fetched or given; immutable. */
export interface OpenapiSpecVersionsTable {
  id: string;
  spec_id: string;
  number: number; // 1, 2, … per spec
  source_url: string | null;
  hash: string; // SHA-256 of the text: an unchanged fetch makes no version
  text: string;
  reference: string; // JSON ApiReference (openapi-specs/reference.ts)
  created_at: string;
}

/** An import of a website or of uploaded files, done by a job (0021_import_runs). */
export interface ImportRunsTable {
  id: string;
  organization_id: string;
  space_id: string;
  change_request_id: string | null;
  page_id: string | null;
  /** JSON of the official ContentImportSource. */
  source: string;
  /** `pending`, `in-progress`, `completed`, `failed`, `cancelled` (the official statuses). */
  status: string;
  /** What the job is doing (`fetching`, `writing`), while in progress. */
  progress: string | null;
  imported_resources: number;
  total_resources: number;
  revision_id: string | null;
  /** JSON array of `{ id, sourceURL? }`: the pages written. */
  pages: string;
  error: string | null;
  /** JSON of the caller the job acts as (without its token): its rights are checked again when the job runs. */
  caller: string;
  created_by: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  updated_at: string;
}

/** An organization's translation settings and the state of its runs (0015_translations). */
export interface GlossaryEntriesTable {
  id: string;
  organization_id: string;
  /** JSON object: language code → the term in that language. */
  translations: string;
  /** Insertion order within the organization (a batch's entries share their creation time). */
  position: number;
  created_at: string;
  updated_at: string;
}

export interface TranslationsTable {
  id: string;
  organization_id: string;
  title: string;
  /** JSON array of target language codes. */
  languages: string;
  source_space_id: string | null;
  source_language: string | null;
  /** JSON document of instructions for translators, or null. */
  instructions: string | null;
  /** `pending` (a run is queued), `running`, `completed`. */
  status: string;
  last_error: string | null;
  /** Failed attempts of the queued run so far (reset when a run completes). */
  run_attempts: number;
  runs: number;
  total_words: number;
  total_pages: number;
  total_duration: number;
  latest_run_duration: number;
  latest_pages: number;
  latest_words: number;
  last_run_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface TranslationTargetsTable {
  translation_id: string;
  language: string;
  space_id: string;
  revision_id: string | null;
  pages_to_translate: number;
}

export interface TranslationPagesTable {
  translation_id: string;
  language: string;
  source_page_id: string;
  target_page_id: string;
  source_fingerprint: string;
  written_fingerprint: string;
  /** `translated` (by the provider), `needs-translation` (a copy of the source), `outdated` (the source changed after a person translated it). */
  state: string;
  updated_at: string;
}

/** A published integration's manifest (issue 17); list fields are JSON text. */
export interface IntegrationsTable {
  id: string;
  name: string;
  /** The publishing organization (`owner`). */
  organization_id: string;
  version: number;
  runtime: string;
  title: string;
  description: string;
  summary: string;
  icon_hash: string | null;
  preview_images: string;
  visibility: string;
  target: string;
  scopes: string;
  categories: string;
  blocks: string;
  content_sources: string;
  external_links: string;
  configurations: string;
  script: string | null;
  /** Encrypted JSON map of the publisher's secrets; never returned. */
  secrets: string | null;
  content_security_policy: string | null;
  endpoint: string | null;
  dev_tunnel_url: string | null;
  dev_all: number;
  /** Encrypted HMAC key signing event deliveries. */
  signing_secret: string;
  published_by: string;
  created_at: string;
  updated_at: string;
}

export interface IntegrationInstallationsTable {
  id: string;
  integration_id: string;
  organization_id: string;
  status: string;
  space_selection: string;
  site_selection: string;
  configuration: string;
  external_ids: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface IntegrationSpaceInstallationsTable {
  installation_id: string;
  space_id: string;
  status: string;
  configuration: string;
  external_ids: string;
  created_at: string;
  updated_at: string;
}

export interface IntegrationSiteInstallationsTable {
  installation_id: string;
  site_id: string;
  status: string;
  configuration: string;
  external_ids: string;
  created_at: string;
  updated_at: string;
}

export interface InstallationTokensTable {
  id: string;
  installation_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface IntegrationEventsTable {
  id: string;
  integration_id: string;
  installation_id: string | null;
  type: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  locked_until: string | null;
  delivered_at: string | null;
  created_at: string;
  /** Delivery order within the installation (migration 0018). */
  sequence: number;
}

export interface IntegrationEventLogsTable {
  event_id: string;
  seq: number;
  timestamp: string;
  level: string;
  message: string;
}

export interface SamlProvidersTable {
  id: string;
  organization_id: string;
  label: string;
  entity_id: string;
  sso_url: string;
  certificate: string;
  default_team_id: string | null;
  default_role: string | null;
  created_at: string;
  updated_at: string;
}

export interface SamlRequestsTable {
  id: string;
  provider_id: string;
  issued_at: string;
  relay_state: string | null;
  expires_at: string;
  used_at: string | null;
  /** SHA-256 of the state cookie of the browser that started the sign-in. */
  browser_hash: string | null;
  /** The signed-in person who started this sign-in to link the provider to their account. */
  link_user_id: string | null;
  ticket_hash: string | null;
  /** JSON of the verified assertion's person, between the ACS and the browser's same-site step. */
  verified_profile: string | null;
  finished_at: string | null;
}

export interface SamlAssertionsTable {
  provider_id: string;
  assertion_id: string;
  expires_at: string;
}

export interface SessionsTable {
  id: string;
  secret_hash: string;
  user_id: string;
  /** The organization whose identity provider opened it; null for a password or one-time-link sign-in. */
  organization_id: string | null;
  provider_id: string | null;
  method: 'password' | 'link' | 'saml' | 'oidc';
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface UserPasswordsTable {
  user_id: string;
  hash: string;
  updated_at: string;
}

export interface SignInLinksTable {
  id: string;
  token_hash: string;
  kind: 'invite' | 'reset' | 'first-start' | 'verify';
  user_id: string;
  organization_id: string | null;
  role: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OidcProvidersTable {
  id: string;
  organization_id: string;
  label: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  default_role: string | null;
  default_team_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface OidcRequestsTable {
  state: string;
  provider_id: string;
  nonce: string;
  code_verifier: string;
  return_to: string | null;
  expires_at: string;
  used_at: string | null;
  browser_hash: string | null;
  link_user_id: string | null;
}

export interface OrganizationInvitesTable {
  id: string;
  organization_id: string;
  role: string | null;
  created_by: string | null;
  created_at: string;
}

export interface UserIdentitiesTable {
  id: string;
  user_id: string;
  organization_id: string;
  provider_kind: 'saml' | 'oidc';
  provider_id: string;
  subject: string | null;
  email: string | null;
  /** How the provider came to sign in this account: it created it, its owner linked it, or its domain is verified. */
  origin: 'created' | 'linked' | 'domain';
  created_at: string;
  last_used_at: string | null;
}

export interface OrganizationDomainsTable {
  id: string;
  organization_id: string;
  domain: string;
  token: string;
  mail_token_hash: string | null;
  /** The address the last verification link went to, and until when that link opens. */
  mailed_to: string | null;
  mail_expires_at: string | null;
  verified_at: string | null;
  verified_by: string | null;
  created_at: string;
}

export interface PendingInvitationsTable {
  organization_id: string;
  user_id: string;
  role: string | null;
  sso: number;
  invited_by: string | null;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  user_identities: UserIdentitiesTable;
  organization_domains: OrganizationDomainsTable;
  pending_invitations: PendingInvitationsTable;
  organizations: OrganizationsTable;
  members: MembersTable;
  api_tokens: ApiTokensTable;
  collections: CollectionsTable;
  spaces: SpacesTable;
  branches: BranchesTable;
  revisions: RevisionsTable;
  change_requests: ChangeRequestsTable;
  page_versions: PageVersionsTable;
  file_versions: FileVersionsTable;
  documents: DocumentsTable;
  document_links: DocumentLinksTable;
  link_checks: LinkChecksTable;
  blobs: BlobsTable;
  custom_fonts: CustomFontsTable;
  git_sync_installations: GitSyncInstallationsTable;
  custom_font_faces: CustomFontFacesTable;
  site_external_links: SiteExternalLinksTable;
  audit_events: AuditEventsTable;
  audit_settings: AuditSettingsTable;
  jobs: JobsTable;
  events: EventsTable;
  server_secrets: ServerSecretsTable;
  server_settings: ServerSettingsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  content_grants: ContentGrantsTable;
  comments: CommentsTable;
  comment_replies: CommentRepliesTable;
  comment_reactions: CommentReactionsTable;
  change_request_reviews: ChangeRequestReviewsTable;
  change_request_reviewers: ChangeRequestReviewersTable;
  notifications: NotificationsTable;
  collaboration_states: CollaborationStatesTable;
  sites: SitesTable;
  site_section_groups: SiteSectionGroupsTable;
  site_sections: SiteSectionsTable;
  site_spaces: SiteSpacesTable;
  site_share_links: SiteShareLinksTable;
  site_redirects: SiteRedirectsTable;
  storage_uploads: StorageUploadsTable;
  site_questions: SiteQuestionsTable;
  site_question_answers: SiteQuestionAnswersTable;
  site_question_answer_sources: SiteQuestionAnswerSourcesTable;
  site_agent_feedback: SiteAgentFeedbackTable;
  site_grants: SiteGrantsTable;
  search_sections: SearchSectionsTable;
  section_embeddings: SectionEmbeddingsTable;
  search_pages: SearchPagesTable;
  search_backfill: SearchBackfillTable;
  space_git_sync: SpaceGitSyncTable;
  space_redirects: SpaceRedirectsTable;
  space_git_layouts: SpaceGitLayoutsTable;
  openapi_specs: OpenapiSpecsTable;
  openapi_spec_versions: OpenapiSpecVersionsTable;
  import_runs: ImportRunsTable;
  translations: TranslationsTable;
  glossary_entries: GlossaryEntriesTable;
  translation_targets: TranslationTargetsTable;
  translation_pages: TranslationPagesTable;
  integrations: IntegrationsTable;
  integration_installations: IntegrationInstallationsTable;
  integration_space_installations: IntegrationSpaceInstallationsTable;
  integration_site_installations: IntegrationSiteInstallationsTable;
  installation_tokens: InstallationTokensTable;
  integration_events: IntegrationEventsTable;
  integration_event_logs: IntegrationEventLogsTable;
  saml_providers: SamlProvidersTable;
  saml_requests: SamlRequestsTable;
  saml_assertions: SamlAssertionsTable;
  sessions: SessionsTable;
  user_passwords: UserPasswordsTable;
  sign_in_links: SignInLinksTable;
  oidc_providers: OidcProvidersTable;
  oidc_requests: OidcRequestsTable;
  organization_invites: OrganizationInvitesTable;
}

export type Db = Kysely<Database>;
/** A database handle or an open transaction: stores accept either so services decide the boundaries. */
export type Executor = Kysely<Database> | Transaction<Database>;
