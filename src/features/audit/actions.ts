import { DAY_MS } from '../../platform/clock.ts';

/**
 * The actions the audit log records, with their labels (listOrganizationAuditEventActions). The official spec
 * gives `action` as a free "stable action name" and lists no values, so these are ours: `<resource>.<what
 * happened>`, in the past tense, stable once released (filters and saved queries name them).
 */
export const AUDIT_ACTIONS = {
  'user.signed_in': 'Signed in',
  'user.signed_out': 'Signed out',
  'user.sign_in_throttled': 'Sign-in attempts blocked after repeated failures',
  'member.added': 'Member added',
  'member.removed': 'Member removed',
  'member.role_changed': 'Member role changed',
  'api_token.created': 'API token created',
  'api_token.revoked': 'API token revoked',
  'invite_link.created': 'Invite link created',
  'invite_link.revoked': 'Invite link revoked',
  'sso.settings_changed': 'Single sign-on settings changed',
  'site.visibility_changed': 'Site visibility changed',
  'site.sharing_changed': 'Site sharing changed',
  'site.visitor_auth_changed': 'Site visitor authentication changed',
  'integration.installed': 'Integration installed',
  'integration.uninstalled': 'Integration uninstalled',
  'integration.scopes_changed': 'Integration scopes changed',
  'space.deleted': 'Space deleted',
  'space.moved': 'Space moved',
  'collection.deleted': 'Collection deleted',
  'collection.moved': 'Collection moved',
  'git_sync.connected': 'Git Sync connected',
  'git_sync.disconnected': 'Git Sync disconnected',
  'git_sync.installed': 'Git Sync installed',
  'git_sync.installation_changed': 'Git Sync installation changed',
  'git_sync.uninstalled': 'Git Sync uninstalled',
  'audit.retention_changed': 'Audit log retention changed',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, value);
}

/** The retention an organization starts with, and the bounds an admin may set it within. */
export const DEFAULT_RETENTION_DAYS = 365;
export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 3650;

/** The oldest moment an event kept for `days` days may have at `now`: older ones are pruned. */
export function retentionCutoff(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString();
}
