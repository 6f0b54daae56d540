import type { Kysely, Transaction } from 'kysely';

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
}

export interface OrganizationsTable {
  id: string;
  title: string;
  hostname: string | null;
  email_domains: string; // JSON string[]
  default_role: string | null;
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
  role: string | null; // null for guests
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
}

export interface CollectionsTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  default_level: string | null; // a role, 'inherit', or null (no access for members)
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
  visibility: string;
  edit_mode: string;
  default_level: string | null;
  language: string | null;
  merge_rules: string; // JSON
  revision_id: string;
  position: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface RevisionsTable {
  id: string;
  space_id: string;
  parents: string; // JSON string[]
  type: string;
  created_by: string | null;
  created_at: string;
}

export interface JobsTable {
  id: string;
  type: string;
  payload: string; // JSON
  run_at: string;
  attempts: number;
  locked_until: string | null;
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

export interface Database {
  users: UsersTable;
  organizations: OrganizationsTable;
  members: MembersTable;
  api_tokens: ApiTokensTable;
  collections: CollectionsTable;
  spaces: SpacesTable;
  revisions: RevisionsTable;
  jobs: JobsTable;
  events: EventsTable;
  server_secrets: ServerSecretsTable;
}

export type Db = Kysely<Database>;
/** A database handle or an open transaction: stores accept either so services decide the boundaries. */
export type Executor = Kysely<Database> | Transaction<Database>;
