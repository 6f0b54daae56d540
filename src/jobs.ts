import type { JobWorker } from './platform/jobs.ts';
import { purgeDeletedSpaces } from './features/spaces/service.ts';

/** Every background job and periodic sweep of the server. */
export function registerJobHandlers(worker: JobWorker): void {
  worker.sweep('purge-deleted-spaces', async (ctx) => {
    await purgeDeletedSpaces(ctx);
  });
}
