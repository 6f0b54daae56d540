/** Where to go after signing in: a path of the app only (never another site: an open redirect). */
export function safeReturnTo(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/';
  return value.startsWith('/app/') ? value.slice(4) : value;
}
