import fs from 'node:fs';
import { mkdtemp, readdir, readFile, rm, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git, { type HttpClient } from 'isomorphic-git';
import type { FetchedResponse } from '../../platform/safe-fetch.ts';
import { ApiError } from '../../platform/errors.ts';

/*
 * Git over HTTPS with isomorphic-git (a maintained pure-JS Git), its every request made through the caller's
 * fetcher: the SSRF-safe one in the server, so a repository URL cannot reach what only the server can reach.
 * Work happens in a temporary folder removed afterwards; a clone is shallow and of one branch.
 */

/** A POST or GET of a URL, as safeFetch makes it. */
export type GitFetcher = (url: string, options: { post?: Buffer; headers: Record<string, string>; maxBytes: number }) => Promise<FetchedResponse>;

export interface GitLimits {
  /** Most bytes one Git request may answer (the pack of a clone). */
  maxBytes: number;
}

/** isomorphic-git's HTTP client over a fetcher: bodies are collected (Git requests are small; packs are bounded). */
export function httpClient(fetch: GitFetcher, limits: GitLimits): HttpClient {
  return {
    async request({ url, method, headers, body }) {
      let post: Buffer | undefined;
      if (method === 'POST') {
        const chunks: Uint8Array[] = [];
        if (body) for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(chunk);
        post = Buffer.concat(chunks);
      }
      const response = await fetch(url, { ...(post ? { post } : {}), headers: headers ?? {}, maxBytes: limits.maxBytes });
      const responseHeaders: Record<string, string> = {};
      if (response.contentType) responseHeaders['content-type'] = response.contentType;
      return {
        url: response.url,
        method,
        statusCode: response.status,
        statusMessage: String(response.status),
        headers: responseHeaders,
        body: (async function* () {
          yield new Uint8Array(response.body);
        })(),
      };
    },
  };
}

/** `refs/heads/main` or `main` -> `main`. */
export function branchOf(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}

export interface Checkout {
  dir: string;
  /** The commit checked out, or undefined for a new branch of an empty or new repository. */
  oid: string | undefined;
  remove(): Promise<void>;
}

/**
 * Clones one branch of a repository, shallowly, into a temporary folder. `create`: a branch (or a whole
 * repository) that does not exist yet is started empty instead of failing (export).
 */
export async function checkoutBranch(url: string, ref: string, http: HttpClient, options: { create?: boolean; noCheckout?: boolean } = {}): Promise<Checkout> {
  const dir = await mkdtemp(join(tmpdir(), 'quire-git-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  const branch = branchOf(ref);
  try {
    try {
      await git.clone({ fs, http, dir, url, ref: branch, singleBranch: true, depth: 1, noTags: true, noCheckout: options.noCheckout === true });
      return { dir, oid: await git.resolveRef({ fs, dir, ref: 'HEAD' }), remove };
    } catch (error) {
      if (!options.create || !isMissingRef(error)) throw error;
    }
    // The branch is new: start it from nothing in a fresh repository pointed at the remote.
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await git.init({ fs, dir, defaultBranch: branch });
    await git.addRemote({ fs, dir, remote: 'origin', url });
    return { dir, oid: undefined, remove };
  } catch (error) {
    await remove();
    throw gitError(url, error);
  }
}

function isMissingRef(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  // An empty repository advertises no refs at all; a missing branch is not found among them.
  return code === 'NotFoundError' || code === 'EmptyServerResponseError' || /could not find|empty repository|No refs/i.test(String((error as Error)?.message));
}

/** Every file of a checkout (not `.git`), as repository paths with their bytes; at most `maxBytes` in all. */
export async function readFiles(dir: string, maxBytes: number): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  let total = 0;
  const walk = async (folder: string, prefix: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (prefix === '' && entry.name === '.git') continue;
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(join(folder, entry.name), path);
      else if (entry.isFile()) {
        const bytes = await readFile(join(folder, entry.name));
        total += bytes.length;
        if (total > maxBytes) throw new ApiError(413, `The repository's files are larger than the ${maxBytes} bytes a Git Sync import reads (GIT_SYNC_MAX_BYTES)`);
        files.set(path, bytes);
      }
    }
  };
  await walk(dir, '');
  return files;
}

export interface CommitOptions {
  message: string;
  author: { name: string; email: string; timestamp: number };
  /** Only files under this folder are replaced ('' = the whole repository). */
  folder: string;
}

/**
 * Commits `files` as the content of `folder` (the rest of the branch's tree kept as it is), writing Git objects
 * directly rather than through a working tree and index, so the cost is one blob per file and one tree per
 * folder. Answers the new commit, or the checkout's own when the tree is the same.
 */
export async function commitFiles(checkout: Checkout, files: ReadonlyMap<string, Buffer>, options: CommitOptions): Promise<{ oid: string; changed: boolean }> {
  const { dir } = checkout;
  const headTree = checkout.oid ? (await git.readCommit({ fs, dir, oid: checkout.oid })).commit.tree : undefined;
  const folderParts = options.folder ? options.folder.split('/') : [];

  // The new content of `folder` as nested maps of name -> blob oid or sub-folder.
  type Folder = Map<string, string | Folder>;
  const root: Folder = new Map();
  for (const [path, bytes] of files) {
    const parts = (options.folder ? path.slice(options.folder.length + 1) : path).split('/');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      let next = node.get(part);
      if (typeof next !== 'object') {
        next = new Map();
        node.set(part, next);
      }
      node = next;
    }
    node.set(parts[parts.length - 1]!, await git.writeBlob({ fs, dir, blob: bytes }));
  }
  const writeFolder = async (folder: Folder): Promise<string> => {
    const entries = [];
    for (const [name, value] of folder) {
      if (typeof value === 'string') entries.push({ mode: '100644', path: name, oid: value, type: 'blob' as const });
      else entries.push({ mode: '040000', path: name, oid: await writeFolder(value), type: 'tree' as const });
    }
    return git.writeTree({ fs, dir, tree: entries });
  };
  let tree = await writeFolder(root);
  // Outside `folder`, the branch keeps its files: the new folder is set into each enclosing tree, innermost first.
  for (let depth = folderParts.length - 1; depth >= 0; depth -= 1) {
    const parentPath = folderParts.slice(0, depth).join('/');
    let entries: { mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' }[] = [];
    if (headTree) {
      try {
        entries = (await git.readTree({ fs, dir, oid: headTree, ...(parentPath ? { filepath: parentPath } : {}) })).tree;
      } catch {
        entries = [];
      }
    }
    entries = entries.filter((e) => e.path !== folderParts[depth]);
    entries.push({ mode: '040000', path: folderParts[depth]!, oid: tree, type: 'tree' });
    tree = await git.writeTree({ fs, dir, tree: entries });
  }
  if (headTree === tree && checkout.oid) return { oid: checkout.oid, changed: false };
  const oid = await git.commit({ fs, dir, message: options.message, author: { ...options.author, timezoneOffset: 0 }, tree, parent: checkout.oid ? [checkout.oid] : [] });
  return { oid, changed: true };
}

/** Pushes the checkout's branch to `ref` of the remote. */
export async function pushBranch(checkout: Checkout, url: string, ref: string, http: HttpClient, force: boolean): Promise<void> {
  try {
    const local = (await git.currentBranch({ fs, dir: checkout.dir })) ?? 'HEAD';
    const result = await git.push({ fs, http, dir: checkout.dir, url, ref: local, remoteRef: `refs/heads/${branchOf(ref)}`, force });
    if (!result.ok) throw new Error(result.error ?? 'the remote refused the push');
    const refResult = result.refs[`refs/heads/${branchOf(ref)}`];
    if (refResult && !refResult.ok) throw new Error(refResult.error || 'the remote refused the push');
  } catch (error) {
    throw gitError(url, error);
  }
}

/** A Git failure as the operation's error: the remote's answer when there is one, never the URL's credentials. */
export function gitError(url: string, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const shown = withoutCredentials(url);
  const data = (error as { data?: { statusCode?: number; response?: string } } | null)?.data;
  const code = (error as { code?: string } | null)?.code;
  if (code === 'HttpError' && data?.statusCode) {
    const status = data.statusCode;
    const what = status === 401 || status === 403 ? 'the repository refused the credentials (give them in the URL)' : status === 404 ? 'no repository there' : `HTTP ${status}`;
    return new ApiError(422, `Git repository ${shown}: ${what}`);
  }
  if (code === 'NotFoundError') return new ApiError(422, `Git repository ${shown}: ${(error as Error).message.replace(/\.$/, '')} (check the ref)`);
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(422, `Git repository ${shown}: ${message.split(url).join(shown)}`);
}

/** A repository URL without its user and password, to store and to show. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}
