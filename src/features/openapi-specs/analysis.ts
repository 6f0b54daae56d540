import { InvalidSpecError, parseSpecText, validateSpec, type SpecProblem } from './document.ts';
import { buildReference } from './reference.ts';

/** What processing makes of a document's text: the reader's reference (JSON), or what is wrong with it. */
export type Analysis = { ok: true; reference: string } | { ok: false; problems: SpecProblem[] };

/** Parses, validates and summarises a document (pure; run in a worker thread by analysis-runner.ts). */
export async function analyseSpecText(text: string): Promise<Analysis> {
  try {
    const document = parseSpecText(text);
    await validateSpec(document);
    return { ok: true, reference: JSON.stringify(buildReference(document)) };
  } catch (error) {
    if (error instanceof InvalidSpecError) return { ok: false, problems: error.problems };
    throw error;
  }
}
