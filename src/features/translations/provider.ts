import type { AppContext } from '../../platform/context.ts';
import { operatorHostAddresses, safeFetch } from '../../platform/safe-fetch.ts';

/** Turns texts of one language into another, keeping their order. */
export interface TranslationProvider {
  translate(texts: readonly string[], source: string, target: string): Promise<string[]>;
}

/** Texts per request and characters per request: requests stay small whatever the page. */
const BATCH_TEXTS = 100;
const BATCH_CHARS = 20_000;
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

/** LibreTranslate's codes where they differ from GitBook's. */
const PROVIDER_CODES: Record<string, string> = { 'pt-br': 'pt-BR', zh: 'zh-Hans', yue: 'zh-Hant', no: 'nb' };

export function providerLanguage(code: string): string {
  return PROVIDER_CODES[code] ?? code;
}

/**
 * The operator's LibreTranslate-compatible API (TRANSLATION_PROVIDER_URL), or undefined when none is set. Its
 * calls go through the SSRF-safe fetcher with its bounds; the operator named the host, so its own addresses are
 * reachable even when private fetches are not allowed (a provider usually runs next to the server).
 */
export function configuredProvider(ctx: AppContext): TranslationProvider | undefined {
  const base = ctx.config.translationProviderUrl;
  if (!base) return undefined;
  const endpoint = `${base}/translate`;
  const apiKey = ctx.config.translationProviderApiKey;
  return {
    async translate(texts, source, target) {
      const trusted = await operatorHostAddresses(new URL(endpoint).hostname);
      const out: string[] = [];
      for (const batch of batches(texts)) {
        const payload = { q: batch, source: source === 'auto' ? 'auto' : providerLanguage(source), target: providerLanguage(target), format: 'text', ...(apiKey ? { api_key: apiKey } : {}) };
        const response = await safeFetch(ctx.config, endpoint, {
          maxBytes: MAX_ANSWER_BYTES,
          accept: 'application/json',
          trustedAddresses: trusted,
          post: Buffer.from(JSON.stringify(payload)),
          headers: { 'content-type': 'application/json' },
        });
        let answer: { translatedText?: unknown; error?: unknown } | undefined;
        try {
          answer = JSON.parse(response.body.toString('utf8')) as typeof answer;
        } catch {
          answer = undefined;
        }
        if (response.status < 200 || response.status > 299) {
          const why = typeof answer?.error === 'string' ? `: ${answer.error}` : '';
          throw new Error(`The translation provider answered HTTP ${response.status}${why}`);
        }
        const translated = answer?.translatedText;
        if (!Array.isArray(translated) || translated.length !== batch.length || !translated.every((t) => typeof t === 'string')) {
          throw new Error(`The translation provider's answer is not a list of ${batch.length} translated texts`);
        }
        out.push(...(translated as string[]));
      }
      return out;
    },
  };
}

function* batches(texts: readonly string[]): Generator<string[]> {
  let batch: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (batch.length > 0 && (batch.length >= BATCH_TEXTS || chars + text.length > BATCH_CHARS)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(text);
    chars += text.length;
  }
  if (batch.length > 0) yield batch;
}
