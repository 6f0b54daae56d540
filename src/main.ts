import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from './config.ts';
import type { Db } from './db/types.ts';
import { isoNow, systemClock } from './platform/clock.ts';
import type { AppContext } from './platform/context.ts';
import { Cursors } from './platform/pagination.ts';
import { ApiError, badRequest, notFound } from './platform/errors.ts';
import { isRole, ROLES, type Role } from './features/access/roles.ts';
import { normalizeEmail } from './features/users/email.ts';

/*
 * What the commands work with, loaded once a command line is accepted: the database layer, the stores and the
 * services take most of a second to load, which `quire help` and a refused command line need not wait for.
 */
const loadWork = async () => {
  const [database, backups, serverLock, blobStore, mail, settings, users, userStore, organizations, organizationStore, spaces, mails] = await Promise.all([
    import('./db/database.ts'),
    import('./backup.ts'),
    import('./db/server-lock.ts'),
    import('./platform/create-blob-store.ts'),
    import('./platform/mail.ts'),
    import('./platform/server-settings.ts'),
    import('./features/users/service.ts'),
    import('./features/users/store.ts'),
    import('./features/organizations/service.ts'),
    import('./features/organizations/store.ts'),
    import('./features/spaces/queries.ts'),
    import('./features/auth/mails.ts'),
  ]);
  return { ...database, ...backups, ...serverLock, ...blobStore, ...mail, ...settings, ...users, ...userStore, ...organizations, ...organizationStore, ...spaces, ...mails };
};
let loading: ReturnType<typeof loadWork> | undefined;
const work = () => (loading ??= loadWork());

const HELP = `quire — documentation platform server (GitBook API v1 compatible)

Usage:
  quire [serve]                                   start the HTTP server (default)
  quire migrate                                   apply pending database migrations
  quire org create --title T --admin EMAIL        create an organization whose admin is EMAIL
                                                  (the user is created if new)
  quire user add --org ID --email E [--name N] [--role R]
                                                  add a user (created if new) to an organization;
                                                  R is admin|create|review|edit|comment|read|guest (default read)
  quire user invite --org ID --email E [--name N] [--role R]
                                                  the same, and print a one-time link with which the person
                                                  sets a password and signs in (e-mailed too with SMTP_URL), at
                                                  PUBLIC_URL, else the address the server last started with
  quire token issue --email E [--label L]         issue an API token for a user (printed once)
  quire token list --email E                      list a user's tokens
  quire token revoke (--id ID | --token T)        revoke a token
  quire org list                                  list every organization
  quire user list [--org ID]                      list every user, or an organization's members and roles
  quire backup --to DIR                           consistent copy of the database and files, server running
  quire restore --from DIR [--force]              restore a backup into DATA_DIR (server stopped)
  quire import PATH --space ID [--project DIR]    replace a space's content with a folder or a .zip: a Git Sync
                                                  layout (SUMMARY.md, .gitbook.yaml), an MkDocs or Docusaurus
                                                  site, or folders of markdown files (the layout is detected);
                                                  --project names the folder of the site's configuration
                                                  (docs/en of FastAPI's repository), as Git Sync's does
  quire export --space ID --to DIR                write a space's content to DIR in the Git Sync layout
  quire files migrate --to s3                     copy every file of DATA_DIR/blobs to the S3_BUCKET bucket
                                                  (resumable: files already there are skipped), then set
                                                  FILE_STORAGE=s3 and restart

Every command prints the database it uses to stderr. One that refuses its arguments says why in one line,
writes nothing and exits with 2; one that fails exits with 1. Process supervisors run \`node bin/quire.js serve\`.

Settings come from the environment (see README): PORT, DATA_DIR, DATABASE_URL, PUBLIC_URL, ...`;

/** Where the commands' database is, said on stderr first, so a wrong working directory or setting shows. */
async function announceDatabase(config: Config): Promise<void> {
  const { describeDatabase } = await work();
  console.error(`Database: ${describeDatabase({ url: config.databaseUrl, dataDir: config.dataDir })}`);
}

async function openMigrated(config: Config): Promise<Db> {
  const { createDatabase, explainDatabaseError, migrateToLatest } = await work();
  const options = { url: config.databaseUrl, dataDir: config.dataDir };
  const db = createDatabase(options);
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw explainDatabaseError(error, options);
  }
  return db;
}

async function withContext<T>(config: Config, run: (ctx: AppContext, db: Db) => Promise<T>): Promise<T> {
  await announceDatabase(config);
  const { createBlobStore, createMailer } = await work();
  const db = await openMigrated(config);
  try {
    // The CLI never reads cursors; a throwaway key keeps the context complete.
    const mailer = createMailer(config, { warn: (data, message) => console.error(`${message}: ${JSON.stringify(data)}`) });
    // The CLI asks no model.
    const ctx: AppContext = { db, clock: systemClock, config, cursors: new Cursors('cli'), blobs: await createBlobStore(config), mailer, ai: undefined };
    try {
      return await run(ctx, db);
    } finally {
      mailer.close();
    }
  } finally {
    await db.destroy();
  }
}

async function listen(app: { listen(options: { port: number; host: string }): Promise<string> }, config: Config): Promise<void> {
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new Error(`Port ${config.port} on ${config.host} is already in use: stop the other server or set PORT to a free port`);
    if (code === 'EACCES') throw new Error(`Port ${config.port} needs privileges this user lacks: set PORT to 1024 or above`);
    if (code === 'EADDRNOTAVAIL') throw new Error(`HOST ${config.host} is not an address of this machine: set HOST (0.0.0.0 listens on every interface)`);
    throw error;
  }
}

async function serve(config: Config): Promise<void> {
  // Loaded here, not at the top: the whole HTTP application takes seconds to load, and the other commands
  // (user, token, org) do not need it.
  const { buildApp } = await import('./app.ts');
  const { bootstrapIfEmpty } = await import('./bootstrap.ts');
  const { closeConversionPool } = await import('./features/content/conversion-pool.ts');
  const { describeDatabase, lockDataDir, recordServerSetting } = await work();
  const database = describeDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  // SQLite: this process is the database's one server until it ends (db/server-lock.ts).
  const lock = config.databaseUrl ? undefined : lockDataDir(config.dataDir);
  const db = await openMigrated(config);
  const app = await buildApp({ config, db });
  const boot = await bootstrapIfEmpty(app.ctx, { adminToken: config.adminToken, adminEmail: process.env.QUIRE_ADMIN_EMAIL || undefined });
  try {
    await listen(app, config);
  } catch (error) {
    await app.close();
    await db.destroy();
    lock?.release();
    throw error;
  }
  app.jobs.start(config.workerIntervalMs);
  // Before the banner: a supervisor (or a test) that stops the server as soon as it says it is serving must find
  // the handler in place; until a listener exists, SIGTERM's default action ends the process at once.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Bounded: a request or job that does not finish in time must not keep the process from stopping.
    const force = setTimeout(() => {
      console.error(`Quire: in-flight work did not finish within SHUTDOWN_TIMEOUT_MS (${config.shutdownTimeoutMs} ms); exiting anyway`);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    console.error(`Quire: ${signal} received; finishing in-flight requests and jobs`);
    // close() stops accepting connections, answers new requests on open ones with 503, waits for the requests
    // in flight, then its onClose hooks wait for the running job. A keep-alive connection whose request ends
    // after close() began would stay open until the client's timeout: it is closed as soon as it is idle.
    const idle = setInterval(() => app.server.closeIdleConnections(), 200);
    await app.close();
    clearInterval(idle);
    await closeConversionPool();
    await db.destroy();
    lock?.release();
    clearTimeout(force);
    console.error('Quire: stopped');
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  // For `quire user invite` in a shell without this server's environment.
  await recordServerSetting(db, 'public_url', config.publicUrl, isoNow(systemClock));
  // The banner is for the person at the terminal; it goes to stderr so that stdout carries only JSON logs.
  console.error(`Quire is serving ${config.publicUrl}/v1 (database: ${database}); API reference at ${config.publicUrl}/v1/docs`);
  if (boot) {
    console.error(
      [
        '',
        `First start: created the organization "${boot.organizationTitle}" (id ${boot.organizationId}) and its admin ${boot.email}.`,
        config.adminToken ? 'Its API token is the value of QUIRE_ADMIN_TOKEN.' : `API token (shown only now, keep it): ${boot.token}`,
        'Try it:',
        `  curl -H "Authorization: Bearer ${config.adminToken ? '$QUIRE_ADMIN_TOKEN' : boot.token}" ${config.publicUrl}/v1/orgs/${boot.organizationId}`,
        'More users and tokens: npm run quire -- user invite --org <id> --email <e-mail> --role edit; npm run quire -- token issue --email <e-mail>',
        '',
        `Open this link to sign in to the web app and choose your password (it works once, within 7 days):`,
        `  ${boot.signInLink}`,
        '',
      ].join('\n'),
    );
  }
}

/**
 * The exit code of a command that threw: 2 when it refused its input (a missing or malformed argument, or one
 * naming something that is not there), having written nothing; 1 when it failed.
 */
export function exitCodeOf(error: unknown): number {
  return error instanceof ApiError && error.statusCode < 500 ? 2 : 1;
}

const OPTIONS = {
  title: { type: 'string' },
  admin: { type: 'string' },
  org: { type: 'string' },
  email: { type: 'string' },
  name: { type: 'string' },
  role: { type: 'string' },
  label: { type: 'string' },
  id: { type: 'string' },
  token: { type: 'string' },
  to: { type: 'string' },
  from: { type: 'string' },
  force: { type: 'boolean' },
  space: { type: 'string' },
  project: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    // Node's message goes on to explain `--` and `=` for values that start with a dash: its first sentence is the news.
    const message = error instanceof Error ? error.message.split(/(?<=\.)\s/)[0]! : String(error);
    throw badRequest(`${message.replace(/\.$/, '')}: quire help lists the commands and their options`);
  }
}

export async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseCommandLine(argv);
  const [command = 'serve', sub] = positionals;
  if (values.help || command === 'help') return void console.log(HELP);
  const config = loadConfig();
  // `import` takes a path where the other commands take a sub-command.
  const name = command === 'import' ? 'import' : `${command} ${sub ?? ''}`.trim();
  // Every argument is checked before the database is opened: a refused command writes nothing, not even a migration.
  const need = (option: keyof typeof values): string => {
    const value = values[option];
    if (typeof value !== 'string' || value === '') throw badRequest(`quire ${name}: --${option} is required (quire help shows its arguments)`);
    return value;
  };
  const email = (option: 'email' | 'admin'): string => {
    const given = need(option);
    try {
      return normalizeEmail(given);
    } catch {
      throw badRequest(`quire ${name}: --${option} "${given}" is not an e-mail address`);
    }
  };
  const organization = async (db: Db, id: string) => {
    const { findOrganization } = await work();
    const org = await findOrganization(db, id);
    if (!org) throw notFound(`quire ${name}: --org ${id} is no organization (quire org list shows them)`);
    return org;
  };
  const space = async (db: Db, id: string) => {
    const { findSpace } = await work();
    const found = await findSpace(db, id);
    if (!found || found.deleted_at) throw notFound(`quire ${name}: --space ${id} is no space`);
    return found;
  };
  const user = async (db: Db, address: string) => {
    const { findUserByEmail } = await work();
    const found = await findUserByEmail(db, address);
    if (!found) throw notFound(`quire ${name}: --email ${address} is no user's (quire user list shows them)`);
    return found;
  };

  switch (name) {
    case 'serve':
      return serve(config);
    case 'migrate':
      return withContext(config, async () => console.log('Database is up to date.'));
    case 'backup': {
      const to = need('to');
      await announceDatabase(config);
      const { backup } = await work();
      for (const line of await backup(config, to)) console.log(line);
      return;
    }
    case 'restore': {
      const from = need('from');
      await announceDatabase(config);
      const { lockDataDir, restore } = await work();
      // Replacing the database under a running server would corrupt what it holds: restore takes the server's lock.
      const lock = config.databaseUrl ? undefined : lockDataDir(config.dataDir, 'restore');
      try {
        for (const line of await restore(config, from, values.force === true)) console.log(line);
      } finally {
        lock?.release();
      }
      return;
    }
    case 'import': {
      const spaceId = need('space');
      if (!sub) throw badRequest(`quire import: the PATH of a folder or .zip is required, as in quire import ./docs --space ${spaceId}`);
      const { formatImportReport, importSource, LAYOUT_NAMES, readImportSource } = await import('./features/git-sync/cli.ts');
      // The files are read, and the project folder found in them, before the database is opened.
      const source = await readImportSource(config, sub, values.project);
      return withContext(config, async (ctx, db) => {
        await space(db, spaceId);
        const result = await importSource(ctx, spaceId, source);
        console.log(`Imported ${result.pages} pages and ${result.files} files into space ${spaceId} (revision ${result.revisionId}), read as ${LAYOUT_NAMES[result.report.layout]}`);
        for (const line of formatImportReport(result.report)) console.log(line);
      });
    }
    case 'export': {
      const spaceId = need('space');
      const to = need('to');
      if ((await stat(to).catch(() => undefined))?.isDirectory() === false) throw badRequest(`quire export: --to ${resolve(to)} is a file, not a folder`);
      const { exportToFolder } = await import('./features/git-sync/cli.ts');
      return withContext(config, async (ctx, db) => {
        await space(db, spaceId);
        const written = await exportToFolder(ctx, spaceId, to);
        console.log(`Wrote ${written} files to ${to}`);
      });
    }
    case 'org list':
      return withContext(config, async (_ctx, db) => {
        const { listAllOrganizations } = await work();
        for (const org of await listAllOrganizations(db)) console.log(`${org.id}  ${org.title}  ${Number(org.members)} members  created ${org.created_at}`);
      });
    case 'user list':
      return withContext(config, async (_ctx, db) => {
        if (values.org) await organization(db, values.org);
        const { listAllUsers } = await work();
        for (const user of await listAllUsers(db, values.org)) {
          const role = values.org ? `  ${user.role ?? 'guest'}` : '';
          console.log(`${user.id}  ${user.email ?? '(no e-mail)'}  ${user.display_name}${role}`);
        }
      });
    case 'org create': {
      const title = need('title');
      const admin = email('admin');
      return withContext(config, async (ctx, db) => {
        // Like `user add`, a new e-mail creates the user: on a fresh database there is no user to name yet.
        const { createUser, findUserByEmail, insertOrganizationWithAdmin } = await work();
        const { org, created } = await db
          .transaction()
          .execute(async (trx) => {
            const existing = await findUserByEmail(trx, admin);
            const user = existing ?? (await createUser(ctx, trx, { email: admin, displayName: values.name, emailVerified: true }));
            return { org: await insertOrganizationWithAdmin(ctx, trx, { title }, user.id), created: !existing };
          })
          .catch((error: unknown) => {
            // The organization's rules name the API's field; the operator typed --title.
            if (error instanceof ApiError && error.message.startsWith('body/title')) throw badRequest(`quire org create: --title${error.message.slice('body/title'.length)}`);
            throw error;
          });
        console.log(`Created organization "${org.title}" (id ${org.id}); admin: ${admin}${created ? ' (new user)' : ''}`);
      });
    }
    case 'user add':
    case 'user invite': {
      const orgId = need('org');
      const address = email('email');
      const roleName = values.role ?? 'read';
      if (roleName !== 'guest' && !isRole(roleName)) throw badRequest(`quire ${name}: --role must be ${[...ROLES].reverse().join(', ')} or guest, not "${roleName}"`);
      const role: Role | null = roleName === 'guest' ? null : (roleName as Role);
      const invite = sub === 'invite';
      return withContext(config, async (ctx, db) => {
        const org = await organization(db, orgId);
        const { createUser, findUserByEmail, invitationMail, readServerSetting } = await work();
        // The link is opened by the person invited, at the server's address: a shell without PUBLIC_URL would
        // print http://localhost:PORT, which is where the server runs only by chance. The server records the URL
        // it serves under when it starts.
        const publicUrl = !invite || config.publicUrlSet ? config.publicUrl : await readServerSetting(db, 'public_url');
        if (!publicUrl) {
          throw badRequest(
            `quire user invite: the server's public URL is not known (no PUBLIC_URL here, and no server has started on this database): set PUBLIC_URL to the address people open, as in PUBLIC_URL=https://docs.example.com quire user invite …`,
          );
        }
        const linkCtx: AppContext = { ...ctx, config: { ...config, publicUrl } };
        // Loaded here: a member's rules reach most of the server (a second of loading the other commands skip).
        const { addOrUpdateMember } = await import('./features/members/service.ts');
        const { createLink } = await import('./features/auth/links.ts');
        const outcome = await db.transaction().execute(async (trx) => {
          const user = (await findUserByEmail(trx, address)) ?? (await createUser(ctx, trx, { email: address, displayName: values.name, emailVerified: true }));
          const result = await addOrUpdateMember(ctx, trx, orgId, user.id, role);
          // The operator is trusted with the database: the link is made whatever account the person has.
          const link = invite ? await createLink(linkCtx, trx, { kind: 'invite', userId: user.id, organizationId: orgId, role }) : undefined;
          return { user, result, link };
        });
        console.log(`${outcome.result === 'added' ? 'Added' : 'Updated'} ${address} (user ${outcome.user.id}) in organization ${orgId} as ${roleName}`);
        if (outcome.link) {
          const emailed = await ctx.mailer.send(invitationMail(linkCtx.config, address, org.title, outcome.link));
          console.log(`One-time link to set a password and sign in (works once, until ${outcome.link.expiresAt})${emailed ? ', also e-mailed' : ''}:`);
          console.log(outcome.link.url);
        }
      });
    }
    case 'token issue': {
      const address = email('email');
      return withContext(config, async (ctx, db) => {
        const found = await user(db, address);
        const { issueToken } = await import('./features/tokens/service.ts');
        const { id, token } = await issueToken(ctx, db, found.id, { label: values.label ?? 'cli' });
        console.log(`Token ${id} for ${found.email} (shown only now, keep it):\n${token}`);
      });
    }
    case 'token list': {
      const address = email('email');
      return withContext(config, async (ctx, db) => {
        const found = await user(db, address);
        const { listTokens } = await import('./features/tokens/service.ts');
        for (const t of await listTokens(ctx, found.id)) {
          console.log(`${t.id}  ${t.label}  created ${t.created_at}  last used ${t.last_used_at ?? 'never'}${t.revoked_at ? `  revoked ${t.revoked_at}` : ''}`);
        }
      });
    }
    case 'token revoke': {
      if (!values.id && !values.token) throw badRequest('quire token revoke: --id or --token is required (quire token list shows the ids)');
      return withContext(config, async (ctx) => {
        const { revokeToken } = await import('./features/tokens/service.ts');
        const count = await revokeToken(ctx, { id: values.id, token: values.token });
        if (count === 0) throw notFound(`quire token revoke: ${values.id ? `--id ${values.id}` : '--token'} names no active token (quire token list shows them)`);
        console.log('Token revoked.');
      });
    }
    case 'files migrate': {
      const to = need('to');
      if (to !== 's3') throw badRequest(`quire files migrate: --to must be s3 (files move from DATA_DIR to an S3-compatible bucket), not "${to}"`);
      const { migrateFilesToS3 } = await import('./features/files/migrate.ts');
      const result = await migrateFilesToS3(config, { report: (line) => console.log(line) });
      if (result.failed.length > 0) {
        throw new ApiError(500, `quire files migrate: ${result.failed.length} files could not be copied; run the command again, or check them:\n  ${result.failed.join('\n  ')}`);
      }
      console.log(config.fileStorage === 's3' ? 'The bucket holds every file.' : 'The bucket holds every file: set FILE_STORAGE=s3 and restart the server (run this command once more just before, for files uploaded meanwhile).');
      return;
    }
    default:
      throw badRequest(`Unknown command "${positionals.join(' ')}": quire help lists the commands`);
  }
}
