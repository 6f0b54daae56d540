import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';
import type { SearchHit } from './visitor-search.ts';

/*
 * A published site's Model Context Protocol endpoint (issue 11): when the site's `agentsContext` is
 * `included`, an agent reaches `<site URL>/~gitbook/mcp` (the path GitBook gives its sites' MCP servers) over
 * the streamable HTTP transport of the official SDK, and gets tools to search the site and to read its pages.
 * Each request is answered on its own (the transport's stateless mode, JSON answers, no session): the tools
 * act for the visitor the request was admitted as (serve-site.ts), so they see exactly what that visitor may
 * read in a browser, and nothing is kept between requests.
 */

export const MCP_PATH = ['~gitbook', 'mcp'] as const;

/** What the tools do, for one admitted visitor of one site. */
export interface SiteAgent {
  title: string;
  search(query: string): Promise<SearchHit[]>;
  /** The page's markdown, or undefined when the visitor has no such page. */
  readPage(ref: { path?: string | undefined; id?: string | undefined }): Promise<string | undefined>;
  /** The pages listed on the site, as llms.txt lists them. */
  listPages(): Promise<string>;
  /** Absolute form of a root-relative URL of the site. */
  absolute(href: string): string;
}

const SEARCH_RESULTS = 10;

function text(value: string, isError = false) {
  return { content: [{ type: 'text' as const, text: value }], ...(isError ? { isError: true } : {}) };
}

/** The tools' own version: it moves when their names, inputs or answers change. */
const TOOLS_VERSION = '1.0.0';

function serverFor(agent: SiteAgent): McpServer {
  const server = new McpServer(
    { name: agent.title.slice(0, 100) || 'Documentation', version: TOOLS_VERSION },
    {
      instructions: `Documentation of ${agent.title}. Use "search" to find pages about a subject, then "read_page" with a result's path or URL to read the page as markdown; "list_pages" lists every page.`,
    },
  );
  server.registerTool(
    'search',
    {
      title: 'Search the documentation',
      description: 'Full-text search of the site. Returns the best matching pages with their URL and an excerpt around the match.',
      inputSchema: { query: z.string().min(1).max(512).describe('Words to look for') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query }) => {
      const hits = (await agent.search(query)).slice(0, SEARCH_RESULTS);
      if (hits.length === 0) return text(`No page matches "${query}".`);
      return text(
        hits
          .map((hit) => [`## ${hit.title}${hit.section ? ` › ${hit.section}` : ''}`, `URL: ${agent.absolute(hit.href)}`, ...(hit.excerpt ? ['', hit.excerpt] : [])].join('\n'))
          .join('\n\n'),
      );
    },
  );
  server.registerTool(
    'read_page',
    {
      title: 'Read a page',
      description: "A page of the site as markdown, named by its URL, its path below the site's URL (e.g. \"guide/install\"), or its id.",
      inputSchema: {
        path: z.string().max(2048).optional().describe("The page's URL or its path below the site's URL"),
        id: z.string().max(200).optional().describe("The page's id"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ path, id }) => {
      if (path === undefined && id === undefined) return text('Name the page: give "path" (its URL or path) or "id".', true);
      const markdown = await agent.readPage({ path, id });
      return markdown === undefined ? text(`No page ${path !== undefined ? `at "${path}"` : `with id "${id}"`} on this site.`, true) : text(markdown);
    },
  );
  server.registerTool(
    'list_pages',
    {
      title: 'List the pages',
      description: 'Every page listed on the site, by section, with its URL (as llms.txt gives them).',
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => text(await agent.listPages()),
  );
  return server;
}

/** One HTTP request to the endpoint, answered by a server made for it. */
export async function answerMcp(request: Request, agent: SiteAgent, parsedBody?: unknown): Promise<Response> {
  const server = serverFor(agent);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request, parsedBody === undefined ? {} : { parsedBody });
    // The answer is whole once its body is read; then the server made for it can go.
    const body = response.body ? await response.text() : null;
    return new Response(body, { status: response.status, headers: response.headers });
  } finally {
    await server.close();
  }
}
