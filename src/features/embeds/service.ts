import type { AppContext, Caller } from '../../platform/context.ts';
import { ApiError, badRequest } from '../../platform/errors.ts';
import { safeFetch } from '../../platform/safe-fetch.ts';
import { listSpaceIntegrationBlocks } from '../integrations/installed.ts';
import type { Static } from 'typebox';
import type { Embed as EmbedSchema } from './schemas.ts';
import { embedOf, matchesUnfurl, readOEmbed, summarizePage } from './unfurl.ts';

type Embed = Static<typeof EmbedSchema>;

/** A page's head is near its start; a larger body is cut there by refusing it. */
const MAX_PAGE_BYTES = 2 * 1024 * 1024;
const MAX_OEMBED_BYTES = 256 * 1024;

function checkedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest(`querystring/url must be an absolute URL, not "${url.slice(0, 200)}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw badRequest(`querystring/url must be an http or https URL, not ${parsed.protocol}`);
  return parsed.href;
}

/**
 * The embed of a URL of the web, fetched through the fetch guard (no loopback, private network or metadata
 * service: such a URL is refused with 400, naming it). A page that cannot be fetched, answers an error or is not
 * HTML is still a link to it: the caller's content keeps its link card.
 */
export async function resolveEmbed(ctx: AppContext, _caller: Caller, url: string): Promise<Embed> {
  const target = checkedUrl(url);
  let page;
  try {
    page = await safeFetch(ctx.config, target, { maxBytes: MAX_PAGE_BYTES, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' });
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 400) throw badRequest(`querystring/url: ${error.message}`);
    if (error instanceof ApiError) return embedOf(target, {});
    throw error;
  }
  if (page.status >= 400 || !/html/i.test(page.contentType ?? '')) return embedOf(target, {});
  const summary = summarizePage(page.body.toString('utf8'), page.url);
  return embedOf(target, summary, summary.oembed ? await fetchOEmbed(ctx, summary.oembed) : undefined);
}

/** The oEmbed answer a page advertises; one that cannot be had leaves the page's own summary. */
async function fetchOEmbed(ctx: AppContext, endpoint: string): Promise<ReturnType<typeof readOEmbed>> {
  try {
    const answer = await safeFetch(ctx.config, endpoint, { maxBytes: MAX_OEMBED_BYTES, accept: 'application/json' });
    return answer.status < 300 ? readOEmbed(JSON.parse(answer.body.toString('utf8'))) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The embed of a URL in a space the caller reads (404 otherwise): an integration installed on the space whose
 * block unfurls such URLs renders it; any other URL is resolved as on the web.
 */
export async function resolveEmbedInSpace(ctx: AppContext, caller: Caller, spaceId: string, url: string): Promise<Embed> {
  const target = checkedUrl(url);
  for (const { name, blocks } of await listSpaceIntegrationBlocks(ctx, caller, spaceId)) {
    const block = blocks.find((b) => (b.urlUnfurl ?? []).some((pattern) => matchesUnfurl(target, pattern)));
    if (block) return { type: 'integration', title: block.title, site: name, ...(block.icon ? { icon: block.icon } : {}), integration: name, block };
  }
  return resolveEmbed(ctx, caller, target);
}
