import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { createDatabase, migrateToLatest } from "../src/db/database.js";
import { ManualClock } from "../src/platform/clock.js";
import { newId } from "../src/platform/ids.js";
import { bootstrapIfEmpty } from "../src/bootstrap.js";
import { createUser } from "../src/features/users/service.js";
import { addOrUpdateMember } from "../src/features/members/service.js";
import { issueToken } from "../src/features/tokens/service.js";
import { insertOrganizationWithAdmin } from "../src/features/organizations/service.js";
/**
 * A server on a fresh database: SQLite in a temporary file, or, when TEST_DATABASE_URL is set, a schema of
 * its own in that PostgreSQL. Every test builds what it needs through the API or the services.
 */
export async function startServer(options = {}) {
    const pgUrl = process.env.TEST_DATABASE_URL;
    const dir = mkdtempSync(join(tmpdir(), 'quire-test-'));
    const schema = pgUrl ? `t_${newId(12).toLowerCase()}` : undefined;
    const config = {
        ...loadConfig({ PUBLIC_URL: 'http://quire.test', DATA_DIR: dir, ...options.env }),
        logLevel: 'silent',
        workerIntervalMs: 0,
        databaseUrl: pgUrl,
    };
    const db = createDatabase({ url: pgUrl, dataDir: dir, schema });
    await migrateToLatest(db, schema);
    const clock = new ManualClock(new Date('2026-01-05T10:00:00.000Z'));
    const app = await buildApp({ config, db, clock });
    const boot = await bootstrapIfEmpty(app.ctx, { adminEmail: 'admin@quire.test' });
    if (!boot)
        throw new Error('bootstrap did not run on a fresh database');
    const adminUser = await db.selectFrom('users').select('id').where('email', '=', 'admin@quire.test').executeTakeFirstOrThrow();
    const ctx = app.ctx;
    let counter = 0;
    async function newUser() {
        counter += 1;
        const email = `user${counter}-${newId(6).toLowerCase()}@quire.test`;
        const user = await createUser(ctx, db, { email, displayName: `User ${counter}` });
        const { token } = await issueToken(ctx, db, user.id);
        return { userId: user.id, email, token };
    }
    const server = {
        app,
        db,
        clock,
        config,
        schema,
        org: { id: boot.organizationId },
        admin: { userId: adminUser.id, email: 'admin@quire.test', token: boot.token },
        async api(method, path, opts = {}) {
            const token = opts.token === undefined ? boot.token : opts.token;
            const headers = { ...(opts.headers ?? {}) };
            if (token !== null)
                headers.authorization = `Bearer ${token}`;
            const response = await app.inject({
                method,
                url: path,
                headers,
                ...(opts.body !== undefined ? { payload: opts.body } : {}),
            });
            const text = response.body;
            let body = undefined;
            if (text.length > 0) {
                try {
                    body = JSON.parse(text);
                }
                catch {
                    body = text;
                }
            }
            return { status: response.statusCode, body, headers: response.headers };
        },
        async member(role, organizationId = boot.organizationId) {
            const user = await newUser();
            await addOrUpdateMember(ctx, db, organizationId, user.userId, role);
            return user;
        },
        async outsider() {
            const user = await newUser();
            const org = await db.transaction().execute((trx) => insertOrganizationWithAdmin(ctx, trx, { title: `Org of ${user.email}` }, user.userId));
            return { ...user, organizationId: org.id };
        },
        async close() {
            await app.close();
            if (schema)
                await sql `drop schema if exists ${sql.id(schema)} cascade`.execute(db);
            await db.destroy();
            rmSync(dir, { recursive: true, force: true });
        },
    };
    return server;
}
/**
 * Serves a started test server over real HTTP on a random port of 127.0.0.1, for clients that cannot use
 * `inject` (the official @gitbook/api client, autocannon). Every `urls` field then points at that address,
 * so a client can follow them. Returns the base URL, without `/v1`; `close()` stops listening too.
 */
export async function listenOnRandomPort(server) {
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    server.config.publicUrl = address;
    return address;
}
//# sourceMappingURL=helpers.js.map