import type { Static } from 'typebox';
import type { SitesTable as SiteRow } from '../../db/types.ts';
import { isoNow } from '../../platform/clock.ts';
import { authorOf, type AppContext, type Caller } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { apiUrl } from '../../platform/urls.ts';
import { documentProblem } from '../content/document/validate.ts';
import { documentToMarkdownText } from '../content/markdown.ts';
import type { SiteAgentSettingsInput } from '../ask/schemas.ts';
import { loadSite } from './service.ts';
import { updateSite } from './store.ts';

/*
 * A site's agent settings (0.202.0's SiteAgentSettings): the custom instructions its Ask answers follow (a
 * document, sent to the model as the site's own instructions, below the rules page text cannot override), and
 * GitBook's topic scans and finding change requests, which Quire does not run: their only value is `never`, and
 * any other is refused rather than kept and ignored.
 */

type Input = Static<typeof SiteAgentSettingsInput>;

/** The longest custom instructions, as markdown: they go into every prompt of the site. */
export const MAX_INSTRUCTIONS_CHARS = 4000;

const EMPTY_DOCUMENT = { object: 'document' as const, data: {}, nodes: [] };

export const DEFAULT_AGENT_SETTINGS: Input = { scans: { topics: 'never' }, findings: { changeRequests: 'never' }, editing: { customInstructions: EMPTY_DOCUMENT } };

export function agentSettingsOf(site: SiteRow): Input {
  return site.agent_settings ? (JSON.parse(site.agent_settings) as Input) : DEFAULT_AGENT_SETTINGS;
}

/** The site's custom instructions as markdown; undefined when it has none. */
export async function siteInstructions(site: SiteRow): Promise<string | undefined> {
  if (!site.agent_settings) return undefined;
  const text = (await documentToMarkdownText(agentSettingsOf(site).editing.customInstructions)).trim();
  return text === '' ? undefined : text;
}

function present(ctx: AppContext, site: SiteRow, settings: Input) {
  return {
    object: 'site-agent-settings' as const,
    ...(site.agent_settings_updated_at ? { updatedAt: site.agent_settings_updated_at } : {}),
    ...(site.agent_settings_updated_by ? { updatedBy: site.agent_settings_updated_by } : {}),
    urls: { location: apiUrl(ctx.config, `/orgs/${site.organization_id}/sites/${site.id}/agent-settings`) },
    ...settings,
  };
}

export async function getSiteAgentSettings(ctx: AppContext, caller: Caller, organizationId: string, siteId: string) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'view');
  return present(ctx, site, agentSettingsOf(site));
}

export async function updateSiteAgentSettings(ctx: AppContext, caller: Caller, organizationId: string, siteId: string, body: Input) {
  const { site } = await loadSite(ctx, caller, organizationId, siteId, 'manage', 'Changing the agent settings');
  if (body.scans.topics !== 'never') throw badRequest(`body/scans/topics: Quire does not scan a site's topics for findings; the only value is "never", not "${body.scans.topics}"`);
  if (body.findings.changeRequests !== 'never') {
    throw badRequest(`body/findings/changeRequests: Quire does not open change requests for findings; the only value is "never", not "${body.findings.changeRequests}"`);
  }
  const document = body.editing.customInstructions;
  const problem = documentProblem(document);
  if (problem) throw badRequest(`body/editing/customInstructions${problem.path}: ${problem.message}`);
  const markdown = await documentToMarkdownText(document);
  if (markdown.length > MAX_INSTRUCTIONS_CHARS) {
    throw badRequest(`body/editing/customInstructions: ${markdown.length} characters of text, more than the ${MAX_INSTRUCTIONS_CHARS} that go into a prompt`);
  }
  const settings: Input = { scans: { topics: 'never' }, findings: { changeRequests: 'never' }, editing: { customInstructions: document } };
  const now = isoNow(ctx.clock);
  const updatedBy = authorOf(caller);
  const changes = { agent_settings: JSON.stringify(settings), agent_settings_updated_at: now, agent_settings_updated_by: updatedBy };
  await updateSite(ctx.db, site.id, changes);
  return present(ctx, { ...site, ...changes }, settings);
}
