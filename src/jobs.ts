import type { JobWorker } from './platform/jobs.ts';
import { purgeDeletedSpaces } from './features/spaces/service.ts';
import { checkExternalLinks } from './features/links/check-links.ts';
import { extractPendingDocumentLinks } from './features/content/revisions.ts';
import { runTranslationJob } from './features/translations/run.ts';
import { TRANSLATION_RUN_JOB } from './features/translations/service.ts';

/** Every background job and periodic sweep of the server. */
export function registerJobHandlers(worker: JobWorker): void {
  worker.sweep('purge-deleted-spaces', async (ctx) => {
    await purgeDeletedSpaces(ctx);
  });
  // Documents stored before links were extracted (migration 0009), a batch per run.
  worker.sweep('extract-document-links', async (ctx) => {
    await extractPendingDocumentLinks(ctx.db, 200);
  });
  worker.sweep('check-external-links', async (ctx) => {
    await checkExternalLinks(ctx);
  });
  worker.handle(TRANSLATION_RUN_JOB, runTranslationJob);
}
