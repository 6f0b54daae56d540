/** The site an embed's card names (its URL's host), or the URL as it is when it has none (a relative URL). */
export function embedSite(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
