/** The router's path of an API `urls.app` (an absolute URL under /app): what a <Link> takes. */
export function appPath(url: string): string {
  const path = url.startsWith('/') ? url : new URL(url).pathname + new URL(url).search + new URL(url).hash;
  return path.replace(/^\/app(?=\/|$)/, '') || '/';
}
