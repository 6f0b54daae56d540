import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The isolate library, loaded once and only when a script first runs.
 *
 * `isolated-vm` is a native addon built from source at install time, and no single release builds on every Node
 * the server supports: 5.x builds on Node 20 and 22 but not on 24 (V8 API changes), 6.x needs Node 22 or later.
 * package.json therefore names both as optional dependencies (6.x under the alias `isolated-vm-v6`): npm skips
 * the one whose `engines` does not match and drops one that fails to build, without failing the install. When
 * neither loads, scripts are not supported on this server and `loadEngine` says why.
 *
 * Only the small part of the library's API used here is typed, so the server typechecks whichever release
 * (or none) is installed.
 */
export interface IvmExternalCopy {
  copy(): ArrayBuffer;
}
export interface IvmReference {
  derefInto(): unknown;
}
export interface IvmModule {
  readonly namespace: IvmReference;
  cachedData?: IvmExternalCopy;
  instantiate(context: IvmContext, resolve: (specifier: string) => never): Promise<void>;
  evaluate(options?: { timeout?: number }): Promise<unknown>;
  release(): void;
}
export interface IvmScript {
  cachedData?: IvmExternalCopy;
  run(context: IvmContext, options?: { timeout?: number; release?: boolean }): Promise<unknown>;
  release(): void;
}
export interface IvmContext {
  evalClosure(code: string, args?: unknown[], options?: Record<string, unknown>): Promise<unknown>;
  release(): void;
}
interface CompileOptions {
  filename?: string;
  cachedData?: IvmExternalCopy;
  produceCachedData?: boolean;
}
export interface IvmIsolate {
  readonly cpuTime: bigint;
  readonly isDisposed: boolean;
  compileModule(code: string, options?: CompileOptions): Promise<IvmModule>;
  compileScript(code: string, options?: CompileOptions): Promise<IvmScript>;
  createContext(): Promise<IvmContext>;
  dispose(): void;
}
export interface Ivm {
  Isolate: {
    new (options: { memoryLimit: number; onCatastrophicError?: (message: string) => void }): IvmIsolate;
  };
  Callback: new (fn: (...args: never[]) => unknown, options?: { ignored?: boolean }) => unknown;
  /** A host function the isolate calls with `apply(…, { result: { promise: true } })`, for answers that take time. */
  Reference: new (value: unknown) => { release(): void };
}

export interface Engine {
  ivm: Ivm;
  /** Which release runs the scripts, for the logs and the report. */
  version: string;
  /**
   * The Web platform every context starts with (sandbox-prelude.js), run in each new context from V8's code
   * cache (well under a millisecond). Not a V8 snapshot: isolated-vm's snapshots keep top-level declarations
   * but lose properties set on the global object and the closures that refer to it, which is how the prelude
   * defines its globals.
   */
  prelude: string;
}

let engine: Engine | undefined;
let failure: Error | undefined;

/** Set when V8 reports an isolate it lost control of: the process then refuses to run further scripts. */
let catastrophe: string | undefined;

export function loadEngine(): Engine {
  if (catastrophe) throw new Error(`integration scripts are disabled until the server restarts: the isolate library reported "${catastrophe}"`);
  if (engine) return engine;
  if (failure) throw failure;
  const require = createRequire(import.meta.url);
  const reasons: string[] = [];
  for (const name of ['isolated-vm-v6', 'isolated-vm']) {
    let ivm: Ivm;
    try {
      ivm = require(name) as Ivm;
    } catch (error) {
      reasons.push(`${name}: ${firstLine(error)}`);
      continue;
    }
    const version = readVersion(require, name);
    const prelude = readFileSync(new URL('./sandbox-prelude.js', import.meta.url), 'utf8');
    engine = { ivm, version: `${name}@${version}`, prelude };
    return engine;
  }
  failure = new Error(
    `integration scripts are not supported on this server: no isolate library could be loaded on Node ${process.version} (${reasons.join('; ')})`,
  );
  throw failure;
}

export function reportCatastrophe(message: string): void {
  catastrophe = message;
}

function readVersion(require: NodeJS.Require, name: string): string {
  try {
    return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
