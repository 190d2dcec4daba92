import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ErrorCodeName } from '@verdant/api';
import { Redis } from 'ioredis';
import { AppError } from '../http/errors.ts';
import type { MessageParams } from '../i18n/index.ts';

/**
 * The processes of one cluster talk through Redis (REDIS_URL): broadcasts (a session ended) and
 * requests to one process with its answer (a spot command handed to the market's owner). Plain
 * pub/sub: a message reaches the processes connected at that moment, and nothing is stored, so
 * a request whose process dies is answered by a timeout or by the caller noticing the death.
 * Redis request/reply rather than internal HTTP: every process already has Redis, and no process
 * has to know another's address; a hop costs two publishes and two JSON codings (about 0.2 ms on
 * one machine, docs/decisions.md).
 */
export interface Bus {
  /** This process, as logs and the operator endpoint name it: host:port/pid. */
  readonly nodeId: string;
  /** Every key and channel begins with it: one Redis can serve several databases (and tests). */
  readonly prefix: string;
  /** The command connection (rate limits, publishing). */
  readonly redis: Redis;
  /** Connections the Socket.IO adapter publishes and subscribes on. */
  readonly adapterPub: Redis;
  readonly adapterSub: Redis;
  /** Sends `data` to every other process listening on `topic`. */
  broadcast(topic: string, data: unknown): Promise<void>;
  /** Calls `fn` for each broadcast on `topic` from another process. */
  onBroadcast(topic: string, fn: (data: unknown, from: string) => void): void;
  /**
   * Asks process `node` to run `method`: answers its value, or throws its AppError. Throws
   * `NoSuchNode` when no process listens under that name; `gone()` (polled) ends the wait with
   * `OutcomeUnknown` when the request may have run but its answer will not come.
   */
  request<T>(node: string, method: string, args: unknown, opts: RequestOptions): Promise<T>;
  /** Serves `method` for other processes. */
  serve(method: string, fn: (args: unknown) => Promise<unknown>): void;
  close(): Promise<void>;
}

export interface RequestOptions {
  timeoutMs: number;
  /** Checked every 250 ms while waiting: true once the process asked is known to be dead. */
  gone?: () => boolean;
}

/**
 * The process asked is not connected, or answered that the work is not its own (`NotHere`):
 * nothing was done; ask the right process.
 */
export class NoSuchNode extends Error {}
/** Thrown by a served method: this process cannot do it and did nothing (the caller asks again). */
export class NotHere extends Error {}
/** The request reached a process that died (or never answered): it may or may not have run. */
export class OutcomeUnknown extends Error {}

interface Envelope {
  t: 'b' | 'q' | 'r';
  from: string;
  topic?: string;
  data?: unknown;
  id?: number;
  method?: string;
  ok?: boolean;
  err?: WireError;
  /** The answer to a request this process did not take on (NotHere): nothing was done. */
  elsewhere?: boolean;
}

interface WireError {
  codeName: ErrorCodeName;
  messageKey: string;
  params: MessageParams;
  field?: string;
}

export interface BusOptions {
  url: string;
  /** Separates clusters on one Redis: the database schema (tests give each file its own). */
  namespace: string;
  port: number;
  warn: (msg: string) => void;
}

export async function openBus(opts: BusOptions): Promise<Bus> {
  const nodeId = `${hostname()}:${opts.port}/${process.pid}/${randomBytes(2).toString('hex')}`;
  const prefix = `verdant:${opts.namespace}:`;
  const connect = () =>
    new Redis(opts.url, {
      // a command waits while Redis reconnects, but not for ever: rate limits answer "try again"
      maxRetriesPerRequest: 2,
      connectTimeout: 5_000,
      lazyConnect: true,
    });
  const redis = connect();
  const sub = connect();
  const adapterPub = connect();
  const adapterSub = connect();
  let told = false;
  for (const c of [redis, sub, adapterPub, adapterSub])
    c.on('error', (e: Error) => {
      if (told) return;
      told = true;
      opts.warn(`Redis at ${describe(opts.url)}: ${e.message}; reconnecting`);
    });
  redis.on('ready', () => {
    if (told) opts.warn(`Redis at ${describe(opts.url)} answers again`);
    told = false;
  });
  await Promise.all([redis, sub, adapterPub, adapterSub].map((c) => c.connect()));
  // The Socket.IO adapter does not wait for its publishes: while Redis is down each one would
  // fail as an unhandled rejection, which ends a Node process. A lost emit costs nothing that
  // the next snapshot does not repair.
  const publish = adapterPub.publish.bind(adapterPub) as (
    channel: string,
    message: string,
  ) => Promise<number>;
  (adapterPub as unknown as { publish: typeof publish }).publish = (channel, message) => {
    const p = publish(channel, message);
    p.catch(() => {});
    return p;
  };

  const broadcastChannel = `${prefix}bus`;
  const myChannel = `${prefix}node:${nodeId}`;
  const listeners = new Map<string, ((data: unknown, from: string) => void)[]>();
  const handlers = new Map<string, (args: unknown) => Promise<unknown>>();
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  /** Requests of other processes this one is working on (close answers them first). */
  const serving = new Set<Promise<void>>();
  let nextId = 1;

  const send = (channel: string, e: Envelope) => redis.publish(channel, JSON.stringify(e));

  sub.on('message', (channel: string, text: string) => {
    let e: Envelope;
    try {
      e = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (channel === broadcastChannel) {
      if (e.from === nodeId || e.t !== 'b') return;
      for (const fn of listeners.get(e.topic ?? '') ?? []) fn(e.data, e.from);
      return;
    }
    if (e.t === 'r') {
      const w = waiting.get(e.id!);
      if (!w) return;
      waiting.delete(e.id!);
      if (e.ok) w.resolve(e.data);
      else if (e.elsewhere) w.reject(new NoSuchNode(e.from));
      else
        w.reject(
          e.err
            ? new AppError(e.err.codeName, e.err.messageKey, e.err.params, e.err.field)
            : new OutcomeUnknown(),
        );
      return;
    }
    if (e.t === 'q') {
      const fn = handlers.get(e.method ?? '');
      const answer = (r: Partial<Envelope>) =>
        void send(`${prefix}node:${e.from}`, { t: 'r', from: nodeId, id: e.id, ...r }).catch(() => {});
      if (!fn) return answer({ ok: false, elsewhere: true });
      const done = fn(e.data).then(
        (data) => answer({ ok: true, data }),
        (err: unknown) =>
          answer(err instanceof NotHere ? { ok: false, elsewhere: true } : { ok: false, err: toWire(err) }),
      );
      serving.add(done);
      void done.finally(() => serving.delete(done));
    }
  });
  await sub.subscribe(broadcastChannel, myChannel);

  return {
    nodeId,
    prefix,
    redis,
    adapterPub,
    adapterSub,
    async broadcast(topic, data) {
      await send(broadcastChannel, { t: 'b', from: nodeId, topic, data });
    },
    onBroadcast(topic, fn) {
      listeners.set(topic, [...(listeners.get(topic) ?? []), fn]);
    },
    async request<T>(node: string, method: string, args: unknown, o: RequestOptions): Promise<T> {
      const id = nextId++;
      const answer = new Promise<unknown>((resolve, reject) => waiting.set(id, { resolve, reject }));
      answer.catch(() => {});
      let receivers: number;
      try {
        receivers = await send(`${prefix}node:${node}`, { t: 'q', from: nodeId, id, method, data: args });
      } catch (e) {
        waiting.delete(id);
        throw e;
      }
      if (receivers === 0) {
        waiting.delete(id);
        throw new NoSuchNode(node);
      }
      let timer: NodeJS.Timeout | undefined;
      let poll: NodeJS.Timeout | undefined;
      const end = new Promise<never>((_, reject) => {
        const fail = () => {
          waiting.delete(id);
          reject(new OutcomeUnknown(node));
        };
        timer = setTimeout(fail, o.timeoutMs);
        if (o.gone)
          poll = setInterval(() => {
            if (o.gone!()) fail();
          }, 250);
      });
      try {
        return (await Promise.race([answer, end])) as T;
      } finally {
        clearTimeout(timer);
        clearInterval(poll);
      }
    },
    serve(method, fn) {
      handlers.set(method, fn);
    },
    async close() {
      // No new requests from here on (their senders see nobody listening and ask the next
      // owner); those under way are answered before the connections close.
      await sub.unsubscribe(myChannel).catch(() => {});
      while (serving.size > 0) await Promise.allSettled([...serving]);
      for (const w of waiting.values()) w.reject(new OutcomeUnknown('closing'));
      waiting.clear();
      await Promise.all(
        [sub, adapterSub, adapterPub, redis].map((c) => c.quit().catch(() => c.disconnect())),
      );
    },
  };
}

function toWire(err: unknown): WireError {
  if (err instanceof AppError)
    return { codeName: err.codeName, messageKey: err.messageKey, params: err.params, field: err.field };
  // details stay in the log of the process that failed; the caller hears "try again"
  return { codeName: 'CONFLICT', messageKey: 'spot.retry', params: {} };
}

function describe(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}`;
  } catch {
    return 'the configured server';
  }
}
