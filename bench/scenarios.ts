import type { BenchServer } from './server.ts';
import { seededSpace } from './content-scale.ts';

/**
 * One measured request. `prepare` builds the data it needs through the API (not measured) and returns the
 * request to repeat. To add a scenario (say, a page of a 10,000-page space), append an entry here: the
 * runner measures it like the others and adds a row to docs/benchmarks.md.
 */
export interface Scenario {
  name: string;
  /** One line for the table: what the request does and on how much data. */
  description: string;
  prepare(server: BenchServer): Promise<{ method?: string; path: string; body?: unknown; auth?: boolean }>;
}

/** The first scenario is the baseline the others are compared to: the HTTP stack alone. */
export const scenarios: Scenario[] = [
  {
    name: 'baseline',
    description: 'GET /v1/ — API information: no token, no database',
    prepare: async () => ({ path: '/v1/', auth: false }),
  },
  {
    name: 'get-space',
    description: 'GET /v1/spaces/{id} — token check, space and role lookup, presenter',
    prepare: async (server) => {
      const space = await server.api<{ id: string }>('POST', `/orgs/${server.organizationId}/spaces`, { title: 'Benchmark space', emoji: '1f4d8' });
      return { path: `/v1/spaces/${space.id}` };
    },
  },
  {
    name: 'list-spaces',
    description: 'GET /v1/orgs/{id}/spaces — first page of 50 out of 200 spaces',
    prepare: async (server) => {
      // An organization of its own, so what other scenarios create does not change the count.
      const org = await server.api<{ id: string }>('POST', '/orgs', { title: 'Benchmark organization' });
      for (let i = 0; i < 200; i += 1) await server.api('POST', `/orgs/${org.id}/spaces`, { title: `Space ${i}` });
      return { path: `/v1/orgs/${org.id}/spaces` };
    },
  },
  {
    name: 'read-page-100',
    description: 'GET /v1/spaces/{id}/content/page/{pageId} — one page of a 100-page space',
    prepare: async (server) => {
      const space = await seededSpace(server, 100);
      return { path: `/v1/spaces/${space.spaceId}/content/page/${space.pageId}` };
    },
  },
  {
    name: 'read-page-10k',
    description: 'GET /v1/spaces/{id}/content/page/{pageId} — one page of a 10,000-page space',
    prepare: async (server) => {
      const space = await seededSpace(server, 10_000);
      return { path: `/v1/spaces/${space.spaceId}/content/page/${space.pageId}` };
    },
  },
];
