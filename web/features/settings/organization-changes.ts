/** The organization settings form as typed, and what of it changed, in updateOrganizationById's shape. */
export interface SettingsForm {
  title: string;
  logo: string;
  hostname: string;
  defaultRole: string;
  emailDomains: string;
  inviteLinks: boolean;
}

const domainsOf = (text: string) => [...new Set(text.split(/[\s,;]+/).map((d) => d.trim().toLowerCase()).filter(Boolean))];

/** Only the fields that changed (a PATCH), each as the API takes it: an emptied logo is null, domains a list. */
export function settingsChanges(before: SettingsForm, after: SettingsForm): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  if (after.title.trim() !== before.title) changes.title = after.title.trim();
  if (after.logo.trim() !== before.logo) changes.logo = after.logo.trim() || null;
  if (after.hostname.trim() !== before.hostname && after.hostname.trim() !== '') changes.hostname = after.hostname.trim().toLowerCase();
  if (after.defaultRole !== before.defaultRole) changes.defaultRole = after.defaultRole;
  if (domainsOf(after.emailDomains).join(',') !== domainsOf(before.emailDomains).join(',')) changes.emailDomains = domainsOf(after.emailDomains);
  if (after.inviteLinks !== before.inviteLinks) changes.inviteLinks = after.inviteLinks;
  return changes;
}
