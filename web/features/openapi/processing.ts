/** A spec's processing in words: waiting, under way, done, or failed with why (its lastProcessErrorCode). */
export function processingWords(spec: { processingState: string; lastProcessErrorCode?: string; lastProcessedErrorCount?: number }): string {
  if (spec.processingState === 'pending') return 'Waiting to be processed';
  if (spec.processingState === 'progress') return 'Processing…';
  switch (spec.lastProcessErrorCode) {
    case 'FETCH_TIMEOUT':
      return 'Failed: the URL did not answer in time';
    case 'FETCH_ERROR':
      return 'Failed: the document could not be fetched';
    case 'PARSE_ERROR':
      return 'Failed: not a valid OpenAPI document';
  }
  const problems = spec.lastProcessedErrorCount ?? 0;
  return problems > 0 ? `Processed, with ${problems} ${problems === 1 ? 'problem' : 'problems'}` : 'Processed';
}
