import type { JobWorker } from './platform/jobs.ts';
import { purgeDeletedSpaces } from './features/spaces/service.ts';
import { checkExternalLinks } from './features/links/check-links.ts';
import { extractPendingDocumentLinks } from './features/content/revisions.ts';
import { backfillSearchIndex } from './features/search/backfill.ts';
import { embedPendingSections } from './features/search/embeddings.ts';
import { GIT_EXPORT_JOB, GIT_IMPORT_JOB, runGitExport, runGitImport } from './features/git-sync/service.ts';
import { syncConnectedSpaces } from './features/git-sync/auto-sync.ts';
import { processSpec, refreshOpenAPISpecs } from './features/openapi-specs/processing.ts';
import { PROCESS_SPEC_JOB } from './features/openapi-specs/service.ts';
import { runTranslationJob } from './features/translations/run.ts';
import { failImportRunsWithoutJob, IMPORT_RUN_JOB, purgeFinishedImportRuns, runImportJob } from './features/imports/runs.ts';
import { TRANSLATION_RUN_JOB } from './features/translations/service.ts';
import { mailNotification, NOTIFICATION_MAIL_JOB } from './features/notifications/service.ts';
import { deliverDueEvents } from './features/integration-events/delivery.ts';
import { processOutbox, purgeProcessedOutbox } from './features/integration-events/outbox.ts';
import { purgeExpiredInstallationTokens } from './features/integrations/tokens.ts';
import { collectUnreferencedBlobsWhenDue } from './features/files/collect.ts';
import { pruneAuditLog } from './features/audit/service.ts';

/** Every background job and periodic sweep of the server. */
export function registerJobHandlers(worker: JobWorker): void {
  worker.handle(GIT_IMPORT_JOB, runGitImport);
  worker.handle(GIT_EXPORT_JOB, runGitExport);
  // Spaces connected to a Git branch: pushes imported, main's changes exported, within seconds (issue 43).
  worker.sweepOften('git-sync', (ctx) => ctx.config.gitSyncIntervalMs, async (ctx) => {
    await syncConnectedSpaces(ctx);
  });
  worker.sweep('purge-deleted-spaces', async (ctx) => {
    await purgeDeletedSpaces(ctx);
  });
  // Documents stored before links were extracted (migration 0009), a batch per run.
  worker.sweep('extract-document-links', async (ctx) => {
    await extractPendingDocumentLinks(ctx.db, 200);
  });
  // Spaces whose content was written before search indexed it (migration 0012 lists them), in batches.
  worker.sweep('search-backfill', async (ctx) => {
    await backfillSearchIndex(ctx);
  });
  // Sections without a vector of AI_EMBEDDING_MODEL (new, changed, or all after a model change), when one is set.
  worker.sweep('embed-sections', async (ctx) => {
    await embedPendingSections(ctx);
  });
  worker.sweep('check-external-links', async (ctx) => {
    await checkExternalLinks(ctx);
  });
  // OpenAPI specs: fetch, parse and version a spec; queue URL specs again every OPENAPI_REFRESH_INTERVAL_MS.
  worker.handle(PROCESS_SPEC_JOB, async (ctx, payload) => {
    await processSpec(ctx, (payload as { specId: string }).specId);
  });
  worker.sweep('refresh-openapi-specs', async (ctx) => {
    await refreshOpenAPISpecs(ctx);
  });
  worker.handle(TRANSLATION_RUN_JOB, runTranslationJob);
  // Notifications (review requests, mentions, replies) mailed when SMTP_URL is set.
  worker.handle(NOTIFICATION_MAIL_JOB, mailNotification);
  // Import runs (startImportRun): fetch, convert and write one revision, recording the run's status.
  worker.handle(IMPORT_RUN_JOB, runImportJob);
  // A run whose job left the queue without ending it (dropped after its last attempt, or lost) fails.
  worker.sweep('fail-import-runs-without-job', async (ctx) => {
    await failImportRunsWithoutJob(ctx);
  });
  // Import runs finished more than 90 days ago (IMPORT_RUN_RETENTION_MS), a bounded batch per run.
  worker.sweep('purge-finished-import-runs', async (ctx) => {
    await purgeFinishedImportRuns(ctx);
  });
  // Integration events (issue 17): committed outbox rows become one event per listening installation, then
  // due events are delivered, signed, in order per installation, retried for at least 24 hours.
  worker.sweepOften('integration-events', (ctx) => ctx.config.eventDeliveryIntervalMs, async (ctx) => {
    // Events already written are delivered even when turning the outbox into events failed this time.
    try {
      await processOutbox(ctx);
    } finally {
      await deliverDueEvents(ctx);
    }
  });
  // Outbox rows processed more than a week ago (OUTBOX_RETENTION_MS), a bounded batch per run.
  worker.sweep('purge-processed-outbox', async (ctx) => {
    await purgeProcessedOutbox(ctx);
  });
  // Audit events older than their organization's retention (audit_retention_days, 365 unless an admin set it).
  worker.sweep('prune-audit-log', async (ctx) => {
    await pruneAuditLog(ctx);
  });
  // Installation tokens (1 hour) expired for more than a day (EXPIRED_TOKEN_GRACE_MS).
  worker.sweep('purge-expired-installation-tokens', async (ctx) => {
    await purgeExpiredInstallationTokens(ctx);
  });
  // File bytes no row names, older than BLOB_GRACE_MS (a write cut between its bytes and its row), hourly.
  worker.sweep('collect-unreferenced-blobs', async (ctx) => {
    await collectUnreferencedBlobsWhenDue(ctx);
  });
}
