import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { StartupError } from './db/client.ts';

const config = loadConfig();

/** A reason not to start, as one line an operator can act on; exits non-zero. */
function refuse(e: unknown): never {
  if (e instanceof StartupError) console.error(`Verdant cannot start: ${e.message}`);
  else if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
    console.error(`Verdant cannot start: ${config.host}:${config.port} is already in use (PORT, HOST)`);
  else console.error('Verdant cannot start:', e);
  process.exit(1);
}

/** DATA_DIR holds the uploads (and PGlite): find out now, and name it, if it cannot be written. */
function checkDataDir(dir: string): void {
  const probe = join(dir, `.write-test-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (e) {
    throw new StartupError(
      `the data folder ${dir} cannot be written (${(e as Error).message}); set DATA_DIR`,
    );
  }
}

let app: FastifyInstance | null = null;
let stopping = false;

/**
 * Stops within the grace period (app.ts drains requests and cuts connections after it); if
 * closing still hangs 5 s later (a database that does not answer), exits anyway.
 */
function stop(why: string, code: number): void {
  if (stopping) return;
  if (!app) process.exit(code); // still starting: nothing to drain
  stopping = true;
  const a = app;
  a.log.info(`${why}: stopping (requests in flight have ${config.shutdownGraceMs / 1000} s)`);
  setTimeout(() => {
    a.log.error('could not stop in time: exiting');
    process.exit(1);
  }, config.shutdownGraceMs + 5_000).unref();
  a.close().then(
    () => process.exit(code),
    (e) => {
      a.log.error({ err: e }, 'error while stopping');
      process.exit(1);
    },
  );
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal, 0));

try {
  checkDataDir(config.dataDir);
  app = await buildApp({
    config,
    onBooksLost: (reason) => {
      app?.log.error(`${reason}: this process stops`);
      stop('order books lost', 1);
    },
  });
  await app.listen({ port: config.port, host: config.host });
} catch (e) {
  refuse(e);
}

const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
app.log.info(
  `Verdant is ready at http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}/h5/ (data: ${where})`,
);
