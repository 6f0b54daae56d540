import type { BenchServer } from './server.ts';
import { seededSpace } from './content-scale.ts';
import { createUser } from '../src/features/users/service.ts';
import { addOrUpdateMember } from '../src/features/members/service.ts';
import type { Role } from '../src/features/access/roles.ts';
import { prepareEditorSave } from './editor-save.ts';

/** A target of issue 9: requests/s as a ratio to the baseline of the same run, and optionally a p99 ceiling. */
export interface Target {
  ratio: number;
  p99Ms?: number;
}

/**
 * One measured request. `prepare` builds the data it needs through the API (not measured) and returns the
 * request to repeat. To add a scenario, append an entry here: the runner measures it like the others, on each
 * database it runs on, and adds a row to docs/benchmarks.md.
 */
export interface Scenario {
  name: string;
  /** One line for the table: what the request does and on how much data. */
  description: string;
  /** Targets by database; a scenario without one is measured and shown only. */
  targets?: { sqlite?: Target; postgres?: Target };
  /** Databases to run on (default: both). */
  only?: 'sqlite';
  prepare(server: BenchServer): Promise<{ method?: string; path: string; body?: unknown; auth?: boolean }>;
}

/** Spaces of its own organization, so what other scenarios create does not change the count. */
async function organizationOf(server: BenchServer, title: string): Promise<string> {
  return (await server.api<{ id: string }>('POST', '/orgs', { title })).id;
}

const ROLE_MIX: (Role | null)[] = ['read', 'comment', 'edit', 'review', 'create', 'admin', null];

export const scenarios: Scenario[] = [
  {
    name: 'editor-save',
    description: "POST a change request's content — the editing screen's save of a 300-block page, merged three ways with another save made since its base (bench/editor-save.ts)",
    prepare: async (server) => ({ method: 'POST', ...(await prepareEditorSave(server)) }),
  },
  {
    name: 'get-space',
    description: 'GET /v1/spaces/{id} — token check, space and role lookup, counters, presenter',
    targets: { sqlite: { ratio: 0.3, p99Ms: 15 }, postgres: { ratio: 0.15 } },
    prepare: async (server) => {
      const space = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/spaces`, { title: 'Benchmark space', emoji: '1f4d8' });
      return { path: `/v1/spaces/${space.id}` };
    },
  },
  {
    name: 'list-spaces',
    description: 'GET /v1/orgs/{id}/spaces — first page of 50 out of 200 spaces',
    targets: { sqlite: { ratio: 0.1 } },
    prepare: async (server) => {
      const org = await organizationOf(server, 'Spaces benchmark');
      for (let i = 0; i < 200; i += 1) await server.api('POST', `/orgs/${org}/spaces`, { title: `Space ${i}` });
      return { path: `/v1/orgs/${org}/spaces?limit=50` };
    },
  },
  {
    name: 'list-members',
    description: 'GET /v1/orgs/{id}/members — first page of 50 out of 120 members of mixed roles, with their counts',
    targets: { sqlite: { ratio: 0.1 } },
    prepare: async (server) => {
      const org = await organizationOf(server, 'Members benchmark');
      for (let i = 0; i < 20; i += 1) await server.api('POST', `/orgs/${org}/spaces`, { title: `Space ${i}` });
      const ctx = server.app.ctx;
      for (let i = 0; i < 120; i += 1) {
        const user = await createUser(ctx, ctx.db, { email: `member${i}@bench.quire.test`, displayName: `Member ${i}` });
        await addOrUpdateMember(ctx, ctx.db, org, user.id, ROLE_MIX[i % ROLE_MIX.length]!);
      }
      return { path: `/v1/orgs/${org}/members?limit=50` };
    },
  },
  {
    name: 'read-page-markdown',
    description: 'GET /v1/spaces/{id}/content/page/{pageId}?format=markdown — one page of a 100-page space as markdown',
    targets: { sqlite: { ratio: 0.15 } },
    prepare: async (server) => {
      const space = await seededSpace(server, 100);
      return { path: `/v1/spaces/${space.spaceId}/content/page/${space.pageId}?format=markdown` };
    },
  },
  {
    name: 'content-tree-500',
    description: 'GET /v1/spaces/{id}/content — the current revision with the page tree of a 500-page space',
    // Issue 9: at least 8 times the rate before the read caches. Before (same bench, SQLite): 22 req/s against a
    // baseline of 16,250, a ratio of 0.00135; eight times that is 0.011.
    targets: { sqlite: { ratio: 0.011 } },
    prepare: async (server) => {
      const space = await seededSpace(server, 500);
      return { path: `/v1/spaces/${space.spaceId}/content` };
    },
  },
  {
    name: 'list-comments',
    description: 'GET /v1/spaces/{id}/comments — first page of 50 out of 60 comments',
    targets: { sqlite: { ratio: 0.1 } },
    prepare: async (server) => {
      const space = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/spaces`, { title: 'Comments benchmark' });
      for (let i = 0; i < 60; i += 1) await server.api('POST', `/spaces/${space.id}/comments`, { body: { markdown: `Comment **${i}**, with [a link](https://example.com/${i}).` } });
      return { path: `/v1/spaces/${space.id}/comments?limit=50` };
    },
  },
  {
    name: 'post-comment',
    description: 'POST /v1/spaces/{id}/comments — a markdown comment on a space (one write transaction each)',
    targets: { sqlite: { ratio: 0.06 } },
    prepare: async (server) => {
      const space = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/spaces`, { title: 'Posting benchmark' });
      return { method: 'POST', path: `/v1/spaces/${space.id}/comments`, body: { body: { markdown: 'A comment with **bold** text.' } } };
    },
  },
  {
    name: 'read-page-10k',
    description: 'GET /v1/spaces/{id}/content/page/{pageId} — one page of a 10,000-page space',
    only: 'sqlite',
    prepare: async (server) => {
      const space = await seededSpace(server, 10_000);
      return { path: `/v1/spaces/${space.spaceId}/content/page/${space.pageId}` };
    },
  },
  {
    name: 'reader-page-warm',
    description: 'GET /sites/{site}/guide — a published page as HTML, warm (render cache and ETag key), no API token',
    targets: { sqlite: { ratio: 0.25 } },
    prepare: async (server) => {
      const space = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/spaces`, { title: 'Reader benchmark' });
      const cr = await server.api<{ id: string }>('POST', `/spaces/${space.id}/change-requests`, {});
      const changes = ['Introduction', 'Guide', 'Reference'].map((title) => ({
        operation: 'insert_page',
        title,
        document: { markdown: `# ${title}\n\nSome **text** with [a link](https://example.com).\n\n\`\`\`ts\nconst answer = 42;\n\`\`\`\n` },
      }));
      await server.api('POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes });
      await server.api('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`);
      const site = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/sites`, { title: 'Reader benchmark', spaces: [space.id] });
      await server.api('POST', `/orgs/${server.organizationId}/sites/${site.id}/publish`);
      return { path: `/sites/${site.id}/guide`, auth: false };
    },
  },
];
