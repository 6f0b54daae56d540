import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.ts';
import * as m0002 from './0002_content.ts';
import * as m0003 from './0003_blob_types.ts';
import * as m0004 from './0004_comments.ts';
import * as m0005 from './0005_members_teams.ts';
import * as m0007 from './0007_sites.ts';
import * as m0008 from './0008_search.ts';
import * as m0009 from './0009_links.ts';
import * as m0010 from './0010_git_sync.ts';
import * as m0011 from './0011_site_hostnames.ts';
import * as m0012 from './0012_search_pages.ts';
import * as m0014 from './0014_openapi_specs.ts';
import * as m0015 from './0015_translations.ts';
import * as m0016 from './0016_integrations.ts';
import * as m0018 from './0018_integration_event_order.ts';
import * as m0019 from './0019_saml_sessions.ts';
import * as m0020 from './0020_site_redirects.ts';
import * as m0021 from './0021_import_runs.ts';
import * as m0022 from './0022_installation_tokens_expiry_index.ts';
import * as m0023 from './0023_import_runs_status_index.ts';
import * as m0024 from './0024_sign_in.ts';
import * as m0026 from './0026_change_request_reviews.ts';
import * as m0027 from './0027_space_git_layouts.ts';
import * as m0028 from './0028_notifications.ts';
import * as m0030 from './0030_space_trash.ts';
import * as m0031 from './0031_site_space_customization.ts';
import * as m0035 from './0035_change_request_description.ts';
import * as m0036 from './0036_collaboration_states.ts';
import * as m0037 from './0037_oidc_default_team.ts';
import * as m0038 from './0038_git_sync_last_import.ts';
import * as m0039 from './0039_identity_trust.ts';
import * as m0040 from './0040_server_settings.ts';
import * as m0041 from './0041_unique_block_keys.ts';
import * as m0042 from './0042_domain_mail_expiry.ts';
import * as m0043 from './0043_git_sync_connection.ts';
import * as m0044 from './0044_job_owner.ts';
import * as m0045 from './0045_translation_glossary.ts';
import * as m0048 from './0048_site_grants.ts';
import * as m0049 from './0049_custom_fonts.ts';
import * as m0050 from './0050_site_external_links.ts';
import * as m0051 from './0051_audit_events.ts';
import * as m0052 from './0052_git_sync_installations.ts';
import * as m0053 from './0053_redirect_options_storage_uploads.ts';
import * as m0054 from './0054_site_questions.ts';
import * as m0055 from './0055_section_embeddings.ts';

/** Every migration, in order. Names never change once released: they are recorded in the database. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_content': m0002,
  '0003_blob_types': m0003,
  '0004_comments': m0004,
  '0005_members_teams': m0005,
  '0007_sites': m0007,
  '0008_search': m0008,
  '0009_links': m0009,
  '0010_git_sync': m0010,
  '0011_site_hostnames': m0011,
  '0012_search_pages': m0012,
  '0014_openapi_specs': m0014,
  '0015_translations': m0015,
  '0016_integrations': m0016,
  '0018_integration_event_order': m0018,
  '0019_saml_sessions': m0019,
  '0020_site_redirects': m0020,
  '0021_import_runs': m0021,
  '0022_installation_tokens_expiry_index': m0022,
  '0023_import_runs_status_index': m0023,
  '0024_sign_in': m0024,
  '0026_change_request_reviews': m0026,
  '0027_space_git_layouts': m0027,
  '0028_notifications': m0028,
  '0030_space_trash': m0030,
  '0031_site_space_customization': m0031,
  '0035_change_request_description': m0035,
  '0036_collaboration_states': m0036,
  '0037_oidc_default_team': m0037,
  '0038_git_sync_last_import': m0038,
  '0039_identity_trust': m0039,
  '0040_server_settings': m0040,
  '0041_unique_block_keys': m0041,
  '0042_domain_mail_expiry': m0042,
  '0043_git_sync_connection': m0043,
  '0044_job_owner': m0044,
  '0045_translation_glossary': m0045,
  '0048_site_grants': m0048,
  '0049_custom_fonts': m0049,
  '0050_site_external_links': m0050,
  '0051_audit_events': m0051,
  '0052_git_sync_installations': m0052,
  '0053_redirect_options_storage_uploads': m0053,
  '0054_site_questions': m0054,
  '0055_section_embeddings': m0055,
};
