import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/*
 * A Git server for tests: Git's own `git http-backend` (the smart HTTP protocol, fetch and push) behind a small
 * Node CGI wrapper on 127.0.0.1. Repositories are bare ones made from files with the `git` command line.
 */

export interface GitServer {
  /** `http://127.0.0.1:PORT/<name>.git` */
  url(name: string): string;
  /** A bare repository `<name>.git` holding `files` in one commit on `branch`. */
  createRepository(name: string, files: Record<string, string | Buffer> | { copyOf: string }, branch?: string): void;
  /** An empty bare repository. */
  createEmpty(name: string): void;
  /** The files of a branch, as `git` sees them (a fresh clone). */
  filesOf(name: string, branch: string): Map<string, Buffer>;
  /** Commit message of the branch's head. */
  headMessage(name: string, branch: string): string;
  /** The branch's head: its id, message, author and committer ('Name <email>'). */
  headCommit(name: string, branch: string): { oid: string; message: string; author: string; committer: string };
  /**
   * Commits on the branch as a person would push: files written (null: deleted; a function: given the file's
   * current text, answers the new one); answers the new commit's id.
   */
  commit(name: string, branch: string, files: Record<string, string | null | ((current: string) => string)>, message: string, author?: { name: string; email: string }): string;
  /**
   * Holds every fetch's pack (git-upload-pack POST) for `ms` before answering, from now on (0: none): a clone
   * that is still going when a test kills the process making it.
   */
  delayFetches(ms: number): void;
  /** How many packs were fetched (git-upload-pack POSTs answered or being answered) so far. */
  fetches(): number;
  /** Basic authentication the server requires from now on ('user:password'), or none. */
  requireAuth(credentials: string | undefined): void;
  close(): Promise<void>;
}

const GIT_ENV = { GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

export async function startGitServer(): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), 'quire-git-server-'));
  let auth: string | undefined;
  let fetchDelay = 0;
  const running = new Set<ChildProcess>();
  let fetched = 0;
  const server: Server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url?.includes('git-upload-pack')) {
      fetched += 1;
      if (fetchDelay > 0) await new Promise((resolve) => setTimeout(resolve, fetchDelay));
    }
    if (auth && req.headers.authorization !== `Basic ${Buffer.from(auth).toString('base64')}`) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' });
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        CONTENT_LENGTH: req.headers['content-length'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        REMOTE_USER: 'test',
        REMOTE_ADDR: '127.0.0.1',
        GIT_CONFIG_NOSYSTEM: '1',
      },
    });
    running.add(cgi);
    cgi.on('exit', () => running.delete(cgi));
    // A client that went away (a process killed mid-clone) never ends the body: the CGI would wait for it forever.
    req.on('close', () => {
      if (!req.complete) cgi.kill('SIGKILL');
    });
    cgi.stdin.on('error', () => undefined);
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    cgi.on('close', () => {
      const out = Buffer.concat(chunks);
      const split = out.indexOf('\r\n\r\n');
      const headerEnd = split >= 0 ? split : out.indexOf('\n\n');
      const head = out.subarray(0, headerEnd).toString('latin1');
      const body = out.subarray(headerEnd + (split >= 0 ? 4 : 2));
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === 'status') status = Number(value.split(' ')[0]);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const bare = (name: string) => {
    const path = join(root, `${name}.git`);
    rmSync(path, { recursive: true, force: true });
    git(root, 'init', '--bare', '--quiet', path);
    git(path, 'config', 'http.receivepack', 'true');
    return path;
  };

  return {
    url: (name) => `${base}/${name}.git`,
    delayFetches(ms) {
      fetchDelay = ms;
    },
    fetches: () => fetched,
    createRepository(name, files, branch = 'main') {
      const path = bare(name);
      const work = mkdtempSync(join(tmpdir(), 'quire-git-work-'));
      try {
        if ('copyOf' in files && typeof files.copyOf === 'string') {
          cpSync(files.copyOf, work, { recursive: true });
          execFileSync('chmod', ['-R', 'u+w', work]);
        } else {
          for (const [file, content] of Object.entries(files)) {
            mkdirSync(dirname(join(work, file)), { recursive: true });
            writeFileSync(join(work, file), content as string | Buffer);
          }
        }
        git(work, 'init', '--quiet', '-b', branch);
        git(work, 'add', '-A');
        git(work, 'commit', '--quiet', '-m', 'Initial content');
        git(work, 'push', '--quiet', path, `${branch}:${branch}`);
        git(path, 'symbolic-ref', 'HEAD', `refs/heads/${branch}`);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    createEmpty(name) {
      bare(name);
    },
    filesOf(name, branch) {
      const work = mkdtempSync(join(tmpdir(), 'quire-git-read-'));
      try {
        git(work, 'clone', '--quiet', '--branch', branch, join(root, `${name}.git`), 'repo');
        const listed = git(join(work, 'repo'), 'ls-files', '-z').split('\0').filter(Boolean);
        return new Map(listed.map((file) => [file, readFileSync(join(work, 'repo', file))]));
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    headMessage(name, branch) {
      return git(join(root, `${name}.git`), 'log', '-1', '--format=%B', branch).trim();
    },
    headCommit(name, branch) {
      const [oid, author, committer, ...message] = git(join(root, `${name}.git`), 'log', '-1', '--format=%H%n%an <%ae>%n%cn <%ce>%n%B', branch).split('\n');
      return { oid: oid!, author: author!, committer: committer!, message: message.join('\n').trim() };
    },
    commit(name, branch, files, message, author = { name: 'Dana Git', email: 'dana@example.com' }) {
      const work = mkdtempSync(join(tmpdir(), 'quire-git-push-'));
      try {
        git(work, 'clone', '--quiet', '--branch', branch, join(root, `${name}.git`), 'repo');
        const repo = join(work, 'repo');
        for (const [file, content] of Object.entries(files)) {
          if (content === null) rmSync(join(repo, file), { force: true });
          else {
            mkdirSync(dirname(join(repo, file)), { recursive: true });
            writeFileSync(join(repo, file), typeof content === 'function' ? content(readFileSync(join(repo, file), 'utf8')) : content);
          }
        }
        git(repo, 'add', '-A');
        execFileSync('git', ['commit', '--quiet', '--allow-empty', '-m', message], {
          cwd: repo,
          env: { ...process.env, ...GIT_ENV, GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email },
        });
        git(repo, 'push', '--quiet', 'origin', branch);
        return git(repo, 'rev-parse', 'HEAD').trim();
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    requireAuth(credentials) {
      auth = credentials;
    },
    async close() {
      for (const cgi of running) cgi.kill('SIGKILL');
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
