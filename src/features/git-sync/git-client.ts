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
  /** Who wrote the commit, when not its author (Quire, committing a person's change). */
  committer?: { name: string; email: string; timestamp: number };
  /** Repository paths of files to delete (before `files` are written); a path the branch does not have is skipped. */
  remove?: ReadonlySet<string>;
}

interface TreeEntry { mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' }

/** A folder of the branch's tree, read when an edit reaches it; `folders` are the sub-folders edited. */
interface EditedFolder {
  oid: string | undefined;
  entries?: Map<string, TreeEntry>;
  folders: Map<string, EditedFolder>;
}

/**
 * Commits the branch's tree with `remove` deleted and `files` written (repository paths), every other entry kept
 * as it is — its bytes, its mode (executables, symbolic links, submodules) — so a commit changes only what it
 * names. Git objects are written directly rather than through a working tree and index, and only the folders on
 * the way to an edited path are read and written again. Answers the new commit, or the checkout's own when the
 * tree is the same.
 */
export async function commitFiles(checkout: Checkout, files: ReadonlyMap<string, Buffer>, options: CommitOptions): Promise<{ oid: string; changed: boolean }> {
  const { dir } = checkout;
  const headTree = checkout.oid ? (await git.readCommit({ fs, dir, oid: checkout.oid })).commit.tree : undefined;
  const root: EditedFolder = { oid: headTree, folders: new Map() };
  const entriesOf = async (folder: EditedFolder) => {
    folder.entries ??= new Map((folder.oid ? (await git.readTree({ fs, dir, oid: folder.oid })).tree : []).map((e) => [e.path, e]));
    return folder.entries;
  };
  /** The folder holding `path`; `create`: made where missing (a file in the way is replaced), else undefined. */
  const folderOf = async (path: string, create: boolean): Promise<EditedFolder | undefined> => {
    let folder = root;
    for (const name of path.split('/').slice(0, -1)) {
      let next = folder.folders.get(name);
      if (!next) {
        const entry = (await entriesOf(folder)).get(name);
        if (entry?.type !== 'tree' && !create) return undefined;
        next = { oid: entry?.type === 'tree' ? entry.oid : undefined, folders: new Map() };
        folder.folders.set(name, next);
      }
      folder = next;
    }
    return folder;
  };
  const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  for (const path of options.remove ?? []) {
    const folder = await folderOf(path, false);
    if (folder && (await entriesOf(folder)).get(nameOf(path))?.type === 'blob') folder.entries!.delete(nameOf(path));
  }
  for (const [path, bytes] of files) {
    const folder = (await folderOf(path, true))!;
    const entries = await entriesOf(folder);
    const name = nameOf(path);
    const previous = entries.get(name);
    folder.folders.delete(name);
    // A file keeps its mode (an executable stays one); what was a folder or a link becomes a file.
    const mode = previous?.type === 'blob' && previous.mode === '100755' ? '100755' : '100644';
    entries.set(name, { mode, path: name, oid: await git.writeBlob({ fs, dir, blob: bytes }), type: 'blob' });
  }
  /** The folder's tree, or undefined once it is empty (Git has no empty folders). */
  const writeFolder = async (folder: EditedFolder): Promise<string | undefined> => {
    if (!folder.entries && folder.folders.size === 0) return folder.oid;
    const entries = await entriesOf(folder);
    for (const [name, sub] of folder.folders) {
      const oid = await writeFolder(sub);
      if (oid) entries.set(name, { mode: '040000', path: name, oid, type: 'tree' });
      else if (entries.get(name)?.type === 'tree') entries.delete(name);
    }
    if (entries.size === 0) return undefined;
    return git.writeTree({ fs, dir, tree: [...entries.values()] });
  };
  const tree = (await writeFolder(root)) ?? (await git.writeTree({ fs, dir, tree: [] }));
  if (headTree === tree && checkout.oid) return { oid: checkout.oid, changed: false };
  const oid = await git.commit({
    fs,
    dir,
    message: options.message,
    author: { ...options.author, timezoneOffset: 0 },
    ...(options.committer ? { committer: { ...options.committer, timezoneOffset: 0 } } : {}),
    tree,
    parent: checkout.oid ? [checkout.oid] : [],
  });
  return { oid, changed: true };
}

/**
 * The branch's files under `folder` ('' = all), as repository paths -> blob ids, read from its trees (an export
 * clones without a checkout; `readBranchBlob` reads the few it needs).
 */
export async function listBranchFiles(checkout: Checkout, folder: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!checkout.oid) return out;
  const { dir } = checkout;
  let start: string;
  try {
    start = (await git.readTree({ fs, dir, oid: checkout.oid, ...(folder ? { filepath: folder } : {}) })).oid;
  } catch {
    return out;
  }
  const walk = async (oid: string, prefix: string) => {
    for (const entry of (await git.readTree({ fs, dir, oid })).tree) {
      const path = prefix ? `${prefix}/${entry.path}` : entry.path;
      if (entry.type === 'tree') await walk(entry.oid, path);
      else if (entry.type === 'blob') out.set(path, entry.oid);
    }
  };
  await walk(start, folder);
  return out;
}

/**
 * The commit a branch of the remote points at, or undefined when it has no such branch (or no commit at all): one
 * small request, without fetching any object, as `git ls-remote` does.
 */
export async function remoteHead(url: string, ref: string, http: HttpClient): Promise<string | undefined> {
  const wanted = `refs/heads/${branchOf(ref)}`;
  try {
    const refs = await git.listServerRefs({ http, url, prefix: wanted, protocolVersion: 1 });
    return refs.find((r) => r.ref === wanted)?.oid;
  } catch (error) {
    if (isMissingRef(error)) return undefined;
    throw gitError(url, error);
  }
}

/** The tree of `folder` ('' = the root) in the checked-out commit, or '' when the commit has no such folder. */
export async function folderTree(checkout: Checkout, folder: string): Promise<string> {
  if (!checkout.oid) return '';
  try {
    return (await git.readTree({ fs, dir: checkout.dir, oid: checkout.oid, ...(folder ? { filepath: folder } : {}) })).oid;
  } catch {
    return '';
  }
}

/** The checked-out commit's message and author. */
export async function commitInfo(checkout: Checkout): Promise<{ message: string; author: { name: string; email: string } }> {
  if (!checkout.oid) return { message: '', author: { name: '', email: '' } };
  const { commit } = await git.readCommit({ fs, dir: checkout.dir, oid: checkout.oid });
  return { message: commit.message, author: { name: commit.author.name, email: commit.author.email } };
}

/** The bytes of a blob of the checkout. */
export async function readBranchBlob(checkout: Checkout, oid: string): Promise<Buffer> {
  return Buffer.from((await git.readBlob({ fs, dir: checkout.dir, oid })).blob);
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
