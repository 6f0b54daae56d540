import { parseArgs } from 'node:util';
import { loadConfig, type Config } from './config.ts';
import { createDatabase, describeDatabase, explainDatabaseError, migrateToLatest } from './db/database.ts';
import { backup, restore } from './backup.ts';
import { lockDataDir } from './db/server-lock.ts';
import type { Db } from './db/types.ts';
import { systemClock } from './platform/clock.ts';
import type { AppContext } from './platform/context.ts';
import { Cursors } from './platform/pagination.ts';
import { createBlobStore } from './platform/blob-store.ts';
import { createMailer } from './platform/mail.ts';
import { ApiError } from './platform/errors.ts';
import { isRole, ROLES, type Role } from './features/access/roles.ts';
import { createUser, normalizeEmail } from './features/users/service.ts';
import { findUserByEmail, listAllUsers } from './features/users/store.ts';
import { insertOrganizationWithAdmin } from './features/organizations/service.ts';
import { findOrganization, listAllOrganizations } from './features/organizations/store.ts';
import { invitationMail } from './features/auth/mails.ts';

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
                                                  sets a password and signs in (e-mailed too with SMTP_URL)
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

Every command prints the database it uses to stderr. Process supervisors run \`node bin/quire.js serve\`.

Settings come from the environment (see README): PORT, DATA_DIR, DATABASE_URL, PUBLIC_URL, ...`;

/** Where the commands' database is, said on stderr first, so a wrong working directory or setting shows. */
function announceDatabase(config: Config): void {
  console.error(`Database: ${describeDatabase({ url: config.databaseUrl, dataDir: config.dataDir })}`);
}

async function openMigrated(config: Config): Promise<Db> {
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
  announceDatabase(config);
  const db = await openMigrated(config);
  try {
    // The CLI never reads cursors; a throwaway key keeps the context complete.
    const mailer = createMailer(config, { warn: (data, message) => console.error(`${message}: ${JSON.stringify(data)}`) });
    const ctx: AppContext = { db, clock: systemClock, config, cursors: new Cursors('cli'), blobs: createBlobStore(config), mailer };
    try {
      return await run(ctx, db);
    } finally {
      mailer.close();
    }
  } finally {
    await db.destroy();
  }
}

async function requireUser(db: Db, email: string) {
  const user = await findUserByEmail(db, normalizeEmail(email));
  if (!user) throw new ApiError(404, `No user with e-mail ${email}`);
  return user;
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
}

export async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
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
    },
  });
  const [command = 'serve', sub] = positionals;
  if (values.help || command === 'help') return void console.log(HELP);
  const config = loadConfig();
  const need = (name: keyof typeof values): string => {
    const value = values[name];
    if (typeof value !== 'string' || value === '') throw new ApiError(400, `--${name} is required\n\n${HELP}`);
    return value;
  };

  // `import` takes a path where the other commands take a sub-command.
  switch (command === 'import' ? 'import' : `${command} ${sub ?? ''}`.trim()) {
    case 'serve':
      return serve(config);
    case 'migrate':
      return withContext(config, async () => console.log('Database is up to date.'));
    case 'backup': {
      const to = need('to');
      announceDatabase(config);
      for (const line of await backup(config, to)) console.log(line);
      return;
    }
    case 'restore': {
      const from = need('from');
      announceDatabase(config);
      // Replacing the database under a running server would corrupt what it holds: restore takes the server's lock.
      const lock = config.databaseUrl ? undefined : lockDataDir(config.dataDir, 'restore');
      try {
        for (const line of await restore(config, from, values.force === true)) console.log(line);
      } finally {
        lock?.release();
      }
      return;
    }
    case 'import':
      return withContext(config, async (ctx) => {
        const spaceId = need('space');
        if (!sub) throw new ApiError(400, `quire import needs the PATH of a folder or .zip\n\n${HELP}`);
        const { formatImportReport, importPath, LAYOUT_NAMES } = await import('./features/git-sync/cli.ts');
        const result = await importPath(ctx, spaceId, sub, values.project);
        console.log(`Imported ${result.pages} pages and ${result.files} files into space ${spaceId} (revision ${result.revisionId}), read as ${LAYOUT_NAMES[result.report.layout]}`);
        for (const line of formatImportReport(result.report)) console.log(line);
      });
    case 'export':
      return withContext(config, async (ctx) => {
        const { exportToFolder } = await import('./features/git-sync/cli.ts');
        const written = await exportToFolder(ctx, need('space'), need('to'));
        console.log(`Wrote ${written} files to ${values.to}`);
      });
    case 'org list':
      return withContext(config, async (_ctx, db) => {
        for (const org of await listAllOrganizations(db)) console.log(`${org.id}  ${org.title}  ${Number(org.members)} members  created ${org.created_at}`);
      });
    case 'user list':
      return withContext(config, async (_ctx, db) => {
        if (values.org && !(await findOrganization(db, values.org))) throw new ApiError(404, `No organization ${values.org}`);
        for (const user of await listAllUsers(db, values.org)) {
          const role = values.org ? `  ${user.role ?? 'guest'}` : '';
          console.log(`${user.id}  ${user.email ?? '(no e-mail)'}  ${user.display_name}${role}`);
        }
      });
    case 'org create':
      return withContext(config, async (ctx, db) => {
        const title = need('title');
        const email = normalizeEmail(need('admin'));
        // Like `user add`, a new e-mail creates the user: on a fresh database there is no user to name yet.
        const { org, created } = await db.transaction().execute(async (trx) => {
          const existing = await findUserByEmail(trx, email);
          const admin = existing ?? (await createUser(ctx, trx, { email, displayName: values.name, emailVerified: true }));
          return { org: await insertOrganizationWithAdmin(ctx, trx, { title }, admin.id), created: !existing };
        });
        console.log(`Created organization "${org.title}" (id ${org.id}); admin: ${email}${created ? ' (new user)' : ''}`);
      });
    case 'user add':
    case 'user invite':
      return withContext(config, async (ctx, db) => {
        const orgId = need('org');
        if (!(await findOrganization(db, orgId))) throw new ApiError(404, `No organization ${orgId}`);
        const roleName = values.role ?? 'read';
        if (roleName !== 'guest' && !isRole(roleName)) throw new ApiError(400, `--role must be ${[...ROLES].reverse().join(', ')} or guest`);
        const role: Role | null = roleName === 'guest' ? null : (roleName as Role);
        const email = normalizeEmail(need('email'));
        const invite = sub === 'invite';
        // Loaded here: a member's rules reach most of the server (a second of loading the other commands skip).
        const { addOrUpdateMember } = await import('./features/members/service.ts');
        const { createLink } = await import('./features/auth/links.ts');
        const outcome = await db.transaction().execute(async (trx) => {
          const user = (await findUserByEmail(trx, email)) ?? (await createUser(ctx, trx, { email, displayName: values.name, emailVerified: true }));
          const result = await addOrUpdateMember(ctx, trx, orgId, user.id, role);
          // The operator is trusted with the database: the link is made whatever account the person has.
          const link = invite ? await createLink(ctx, trx, { kind: 'invite', userId: user.id, organizationId: orgId, role }) : undefined;
          return { user, result, link };
        });
        console.log(`${outcome.result === 'added' ? 'Added' : 'Updated'} ${email} (user ${outcome.user.id}) in organization ${orgId} as ${roleName}`);
        if (outcome.link) {
          const emailed = await ctx.mailer.send(invitationMail(config, email, (await findOrganization(db, orgId))?.title ?? orgId, outcome.link));
          console.log(`One-time link to set a password and sign in (works once, until ${outcome.link.expiresAt})${emailed ? ', also e-mailed' : ''}:`);
          console.log(outcome.link.url);
        }
      });
    case 'token issue':
      return withContext(config, async (ctx, db) => {
        const user = await requireUser(db, need('email'));
        const { issueToken } = await import('./features/tokens/service.ts');
        const { id, token } = await issueToken(ctx, db, user.id, { label: values.label ?? 'cli' });
        console.log(`Token ${id} for ${user.email} (shown only now, keep it):\n${token}`);
      });
    case 'token list':
      return withContext(config, async (ctx, db) => {
        const user = await requireUser(db, need('email'));
        const { listTokens } = await import('./features/tokens/service.ts');
        for (const t of await listTokens(ctx, user.id)) {
          console.log(`${t.id}  ${t.label}  created ${t.created_at}  last used ${t.last_used_at ?? 'never'}${t.revoked_at ? `  revoked ${t.revoked_at}` : ''}`);
        }
      });
    case 'token revoke':
      return withContext(config, async (ctx) => {
        if (!values.id && !values.token) throw new ApiError(400, '--id or --token is required');
        const { revokeToken } = await import('./features/tokens/service.ts');
        const count = await revokeToken(ctx, { id: values.id, token: values.token });
        if (count === 0) throw new ApiError(404, 'No active token matches');
        console.log('Token revoked.');
      });
    default:
      throw new ApiError(400, `Unknown command "${positionals.join(' ')}"\n\n${HELP}`);
  }
}
