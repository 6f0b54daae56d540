import type { BundledLanguage } from 'shiki';
import { highlightInBackground, queuedJob } from './background-highlighting.ts';
import { highlightOrJob, type HighlightedLines } from './highlight.ts';

/*
 * How long one render may spend tokenizing code it has not highlighted before. Tokenizing is most of the cost of a
 * page whose code is new (about 0.3 ms for a 3-line block, nearly all of it in the grammar's regular expressions),
 * so a page with 40 such blocks would cost twice what it does once they are cached. Issue 11 wants a cold render
 * of a 300-block page within 30 ms of CPU; the same page with its code cached costs 11 to 18 ms, which leaves 12 ms,
 * and half of that is kept as a margin for a loaded machine. 6 ms highlights about 20 new small blocks: most pages
 * are whole at their first view, and on the others the blocks past the budget show plain (still styled) and finish
 * in the background, so the next view is whole. Wall time, not CPU time: it is what holds the event loop, and on a
 * loaded machine it runs out sooner, never later.
 */
export const RENDER_HIGHLIGHT_BUDGET_MS = 6;

/** One render's allowance of tokenizing time, and whether it left any block plain. */
export class HighlightBudget {
  private remainingMs: number;
  /** Blocks shown plain because the budget ran out; they are queued for the background. */
  deferred = 0;

  constructor(ms = RENDER_HIGHLIGHT_BUDGET_MS) {
    this.remainingMs = ms;
  }

  /** Whether every block could be highlighted: only then may the page be cached. */
  get complete(): boolean {
    return this.deferred === 0;
  }

  /**
   * The code's tokens if they are cached or can be made within what is left of the budget; else null (shown plain)
   * and the block goes on in the background, from where this render stopped. Null too for code never highlighted.
   */
  tokensOf(language: BundledLanguage, code: string): HighlightedLines | null {
    const found = highlightOrJob(language, code);
    if (found === null || Array.isArray(found)) return found;
    const job = (found.key !== null && queuedJob(found.key)) || found;
    if (this.remainingMs > 0) {
      const start = performance.now();
      const lines = job.advance(start + this.remainingMs);
      this.remainingMs -= performance.now() - start;
      if (lines) return lines;
    }
    this.deferred += 1;
    highlightInBackground(job);
    return null;
  }
}
