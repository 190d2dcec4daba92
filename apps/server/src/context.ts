import type { ConfigChanges } from './cluster/changes.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Jobs } from './jobs/singleton.ts';
import type { Notifier } from './modules/notify/service.ts';

/** What every module's service is built from: settings, the database, and outbound messages. */
export interface AppContext {
  config: Config;
  db: Db;
  notifier: Notifier;
  /** A secret for keyed hashes (verification codes), created once and kept in the database. */
  secret: string;
  /**
   * Work that runs on one process of a cluster at a time (feed, market maker, settlement,
   * triggers): `ctx.jobs.runSingleton(name, start)`, see jobs/singleton.ts.
   */
  jobs: Jobs;
  /** Operators' configuration changes reaching every process's caches (cluster/changes.ts). */
  changes: ConfigChanges;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
