import { scenarios } from './scenarios.ts';
import { startBenchServer } from './server.ts';
import { watchStatements } from '../src/db/statement-watch.ts';
import { sql as rawSql } from 'kysely';
import { onQuery } from '../src/db/database.ts';

/**
 * `node --import tsx bench/statements.ts <scenario>…`: the SQL statements one warm request of each named scenario
 * runs, with their durations (the median of STATEMENT_ROUNDS requests), to find the slow or redundant ones.
 */
const names = process.argv.slice(2);
const rounds = Number(process.env.STATEMENT_ROUNDS ?? 50);
const server = await startBenchServer();
try {
  let current: { sql: string; ms: number[] }[] | undefined;
  let index = 0;
  watchStatements(server.app.ctx.db, {
    statement: (sql) => {
      if (!current) return;
      current[index] ??= { sql, ms: [] };
      index += 1;
    },
  });
  onQuery(server.app.ctx.db, (ms) => {
    if (current) current[index - 1]?.ms.push(ms);
  });
  for (const scenario of scenarios.filter((s) => names.includes(s.name))) {
    const request = await scenario.prepare(server);
    const inject = () =>
      server.app.inject({
        method: (request.method ?? 'GET') as 'GET',
        url: request.path,
        headers: { ...(request.auth !== false ? { authorization: `Bearer ${server.token}` } : {}), ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}),
      });
    for (let i = 0; i < 20; i++) await inject();
    current = [];
    for (let i = 0; i < rounds; i++) {
      index = 0;
      await inject();
    }
    console.log(`== ${scenario.name}: ${current.length} statements`);
    for (const s of current) {
      const sorted = [...s.ms].sort((a, b) => a - b);
      console.log(`${(sorted[sorted.length >> 1] ?? NaN).toFixed(3)} ms  ${s.sql}`);
      if (process.env.STATEMENT_EXPLAIN && /^select/i.test(s.sql)) {
        // The plan with every parameter null: enough to see which index a statement uses.
        const parts = s.sql.split('?');
        const plan = await rawSql<{ detail: string }>`explain query plan ${rawSql.join(parts.map((p) => rawSql.raw(p)), rawSql`${null}`)}`.execute(server.app.ctx.db);
        for (const row of plan.rows) console.log(`      ${row.detail}`);
      }
    }
    current = undefined;
  }
} finally {
  await server.close();
}
