import type { Config } from '../config.ts';

/** Absolute URL of an API resource, e.g. apiUrl(config, `/spaces/${id}`). */
export function apiUrl(config: Config, path: string): string {
  return `${config.publicUrl}/v1${path}`;
}

/** Absolute URL of a resource in the web application. */
export function appUrl(config: Config, path: string): string {
  return `${config.publicUrl}/app${path}`;
}
