import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * The test integration (fixtures/hello-integration.jsx, written against the official @gitbook/runtime) bundled
 * with the options of GitBook's CLI (`gitbook publish`), unchanged: what a developer would publish.
 */
export async function helloIntegrationScript(): Promise<string> {
  return bundleLikeGitBookCli(fileURLToPath(new URL('./fixtures/hello-integration.jsx', import.meta.url)));
}

export async function bundleLikeGitBookCli(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'neutral',
    format: 'esm',
    target: 'es2020',
    minify: true,
    mainFields: ['worker', 'browser', 'module', 'jsnext', 'main'],
    conditions: ['worker', 'browser', 'import', 'production'],
    define: { 'process.env.NODE_ENV': '"production"', MODE: '"production"' },
    external: ['node:*', 'cloudflare:*'],
    jsx: 'automatic',
    jsxImportSource: '@gitbook/runtime',
    logLevel: 'silent',
    // The integration's own build settings, not Quire's tsconfig (whose JSX goes to Preact).
    tsconfigRaw: '{}',
  });
  return result.outputFiles[0]!.text;
}
