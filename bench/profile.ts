import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { scenarios } from './scenarios.ts';
import { startBenchServer } from './server.ts';

/**
 * `node --import tsx bench/profile.ts <scenario>…`: runs each named scenario's request PROFILE_ROUNDS times in
 * process (no HTTP client) and prints the time per request (the fastest of PROFILE_REPEATS batches); with PROFILE_DIR, a CPU profile of those rounds per
 * scenario goes there (open it in Chrome's DevTools). PROFILE_PG_URL runs it on PostgreSQL.
 */
const names = process.argv.slice(2);
const rounds = Number(process.env.PROFILE_ROUNDS ?? 300);
const repeats = Number(process.env.PROFILE_REPEATS ?? 1);
const server = await startBenchServer(process.env.PROFILE_PG_URL ? { pgUrl: process.env.PROFILE_PG_URL } : {});
try {
  for (const scenario of scenarios.filter((s) => names.includes(s.name))) {
    const request = await scenario.prepare(server);
    const inject = () =>
      server.app.inject({
        method: (request.method ?? 'GET') as 'GET',
        url: request.path,
        headers: { authorization: `Bearer ${server.token}`, ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}),
      });
    for (let i = 0; i < 20; i++) await inject();
    const session = process.env.PROFILE_DIR ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    // The fastest of a few batches: on a shared machine, the others measure the neighbours too.
    let best = { wall: Infinity, cpu: Infinity };
    for (let batch = 0; batch < repeats; batch++) {
      const start = process.hrtime.bigint();
      const cpuStart = process.cpuUsage();
      for (let i = 0; i < rounds; i++) {
        const response = await inject();
        if (response.statusCode >= 300) throw new Error(`${scenario.name}: ${response.statusCode} ${response.body}`);
      }
      // CPU time is the figure to compare on a loaded machine: wall time there mostly measures other processes.
      const cpu = process.cpuUsage(cpuStart);
      const wall = Number(process.hrtime.bigint() - start) / 1e6 / rounds;
      if ((cpu.user + cpu.system) / 1000 / rounds < best.cpu) best = { wall, cpu: (cpu.user + cpu.system) / 1000 / rounds };
    }
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(`${process.env.PROFILE_DIR}/${scenario.name}.cpuprofile`, JSON.stringify(profile));
      session.disconnect();
    }
    console.log(`${scenario.name}: ${best.wall.toFixed(3)} ms wall, ${best.cpu.toFixed(3)} ms CPU per request`);
  }
} finally {
  await server.close();
}
