// What a market's desk (desk.ts) is built from, and which database failures it runs again.
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { Db } from '../../db/client.ts';
import type { MarketService } from '../market/service.ts';
import type { Desk } from './desk.ts';
import type { Turns } from './pipeline.ts';
import type { OrderStore } from './store.ts';

/** PostgreSQL's deadlock and serialization failures: the transaction did nothing and may run again. */
export function isTransient(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/** What every desk shares: the I/O around the books, and the service's state. */
export interface DeskDeps {
  db: Db;
  store: OrderStore;
  market: MarketService;
  io: Server;
  log: FastifyBaseLogger;
  turns: Turns;
  /** Which desk each resting order is on (cancel finds its desk). */
  where: Map<number, Desk>;
  /** The service is stopping: no more reloads. */
  closed(): boolean;
}
