import { parentPort } from 'node:worker_threads';
import { analyseSpecText } from './analysis.ts';

/** The worker thread of analysis-runner.ts: one document at a time, answered with the request's id. */
parentPort?.on('message', (message: { id: number; text: string }) => {
  analyseSpecText(message.text).then(
    (analysis) => parentPort!.postMessage({ id: message.id, analysis }),
    (error: unknown) => parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
