// Vite's import.meta.glob (web/tsconfig.json loads no Vite types): the modules a pattern matches, each loaded on demand.
interface ImportMeta {
  glob<M = unknown>(pattern: string): Record<string, () => Promise<M>>;
}
