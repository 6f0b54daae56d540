#!/usr/bin/env node
// The package's command: runs the TypeScript sources through tsx's loader (no build step to forget).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
main(process.argv.slice(2)).catch((error) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
