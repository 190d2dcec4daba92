import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Notifier } from './modules/notify/service.ts';

/** What every module's service is built from: settings, the database, and outbound messages. */
export interface AppContext {
  config: Config;
  db: Db;
  notifier: Notifier;
  /** A secret for keyed hashes (verification codes), created once and kept in the database. */
  secret: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
