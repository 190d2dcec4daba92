/**
 * The matching engine beside a peer: Verdant's `OrderBook` (packages/engine) and the npm package
 * `nodejs-order-book`, fed the same seeded command streams in the same process.
 *
 * Two streams, each a prefix that builds a book (not timed) and a measured part during which the
 * book keeps roughly the same size, so the figures do not depend on how long the stream is:
 *  - steady: a mid price that walks randomly (in ticks); limit orders on both sides at a distance
 *    from the mid drawn from an exponential law (most near the top of the book), some of them
 *    marketable; market orders; cancels, mostly of recent live orders (traders re-quote), a few of
 *    orders already gone. The cancel rate follows the number of resting orders, so cancels and
 *    fills balance new orders around `steadyOrders`.
 *  - deep: a book of `deepLevels` price levels (one order each, every other tick on both sides),
 *    then orders a quarter near the top and the rest anywhere in the book's depth, and cancels of live
 *    orders anywhere, so levels are made and emptied all through the book, about as many as
 *    there were.
 * Every order has its own owner, so self-trade prevention never fires and both books must end up
 * identical, which the run checks.
 *
 * Verdant runs with the server's sink: an `EventLog` whose events are taken as an array after each
 * command and walked (what apps/server/src/modules/spot does per command); the peer builds and
 * returns its own result objects. Throughput: the measured part on a fresh book (prefix replayed
 * untimed), no timer inside the loop, several rounds per engine (engines alternate), median; by
 * the wall clock and by the CPU time the process got. Latency: the stream once more per engine,
 * `process.hrtime.bigint()` around each command (its own cost is reported beside it).
 */

import { availableParallelism, loadavg } from 'node:os';
import { type EngineEvent, EventLog, OrderBook } from '@verdant/engine';
import { OrderBook as PeerBook, Side as PeerSide } from 'nodejs-order-book';

const LIMIT = 0;
const MARKET = 1;
const CANCEL = 2;

interface Stream {
  /** Commands in all; the measured part is [start, n). */
  n: number;
  start: number;
  kind: Uint8Array;
  buy: Uint8Array;
  price: Float64Array;
  qty: Float64Array;
  /** Index of the order a command places, or of the order a cancel names. */
  ref: Int32Array;
  ids: string[];
  /** The measured part's mix. */
  counts: { limit: number; marketable: number; market: number; cancel: number };
}

/** A small seeded generator (xorshift32): the same seed gives the same stream on every machine. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

function newStream(n: number): Stream {
  return {
    n,
    start: 0,
    kind: new Uint8Array(n),
    buy: new Uint8Array(n),
    price: new Float64Array(n),
    qty: new Float64Array(n),
    ref: new Int32Array(n),
    ids: Array.from({ length: n }, (_, i) => String(i + 1)),
    counts: { limit: 0, marketable: 0, market: 0, cancel: 0 },
  };
}

/**
 * The orders resting while the stream is written, known by running the stream through an
 * `OrderBook` as it is made (so a cancel can name a live order, as real cancels mostly do).
 */
class LiveSet {
  readonly list: number[] = [];
  private readonly at: Int32Array;
  readonly book: OrderBook;
  constructor(n: number) {
    this.at = new Int32Array(n).fill(-1);
    const live = this;
    this.book = new OrderBook({
      accepted() {},
      fill() {},
      rested(id) {
        live.add(id as number);
      },
      done(id) {
        live.remove(id as number);
      },
    });
  }
  private add(i: number) {
    this.at[i] = this.list.length;
    this.list.push(i);
  }
  remove(i: number) {
    const k = this.at[i]!;
    if (k < 0) return;
    const last = this.list.pop()!;
    if (last !== i) {
      this.list[k] = last;
      this.at[last] = k;
    }
    this.at[i] = -1;
  }
}

/** Sets command `i` and applies it to the live set's book. */
function put(
  st: Stream,
  live: LiveSet,
  i: number,
  kind: number,
  buy: boolean,
  price: number,
  qty: number,
  ref = i,
) {
  st.kind[i] = kind;
  st.buy[i] = buy ? 1 : 0;
  st.price[i] = price;
  st.qty[i] = qty;
  st.ref[i] = ref;
  const measured = i >= st.start;
  if (kind === CANCEL) {
    live.book.cancel(ref);
    if (measured) st.counts.cancel++;
  } else if (kind === MARKET) {
    live.book.placeMarket(i, i, buy ? 'buy' : 'sell', qty);
    if (measured) st.counts.market++;
  } else {
    live.book.placeLimit(i, i, buy ? 'buy' : 'sell', price, qty);
    if (measured) st.counts.limit++;
  }
}

/** How likely the next command is a cancel: `base` at the target size, more above it, less below. */
const cancelOdds = (live: number, target: number, base: number) =>
  Math.min(0.9, Math.max(0.02, base + (3 * (live - target)) / target));

/** A normal step (Box–Muller). */
const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());

export function makeSteadyStream(measured: number, target: number, seed = 20240601): Stream {
  const r = rng(seed);
  // The prefix: long enough to build the book to its target size.
  const cap = measured + target * 4;
  const st = newStream(cap);
  st.start = cap; // set below, once the book reached its size
  const live = new LiveSet(cap);
  // BTC/USDT-like: 65,000.00 with a tick of 0.01 is 6,500,000 ticks; lots of 0.0001 BTC.
  let mid = 6_500_000;
  let i = 0;
  for (; i < cap && i < st.start + measured; i++) {
    if (st.start === cap && live.list.length >= target) st.start = i;
    mid = Math.max(1000, mid + gauss(r) * 0.5);
    const buy = r() < 0.5;
    const u = r();
    // (at the target the book still grows a little, so it settles just above it)
    const pCancel = cancelOdds(live.list.length, target, 0.3);
    if (u < pCancel && live.list.length > 0) {
      // Mostly a live order, mostly a recent one; sometimes one already gone (filled or cancelled).
      const v = r();
      const n = live.list.length;
      const ref =
        v < 0.05
          ? Math.floor(r() * i)
          : live.list[v < 0.8 ? n - 1 - Math.floor(r() * Math.min(n, 200)) : Math.floor(r() * n)]!;
      put(st, live, i, CANCEL, buy, 0, 0, ref);
    } else if (u < pCancel + 0.05) {
      put(st, live, i, MARKET, buy, 0, 1 + Math.floor(-Math.log(1 - r()) * 10));
    } else {
      const marketable = r() < 0.12;
      // Distance from the mid in ticks: exponential, mean 25 ticks; marketable ones cross by a few.
      const d = marketable ? -Math.floor(r() * 8) : 1 + Math.floor(-Math.log(1 - r()) * 25);
      put(
        st,
        live,
        i,
        LIMIT,
        buy,
        Math.round(buy ? mid - d : mid + d),
        1 + Math.floor(-Math.log(1 - r()) * 20),
      );
      if (i >= st.start && marketable) st.counts.marketable++;
    }
  }
  return trim(st, i);
}

export function makeDeepStream(measured: number, levels: number, seed = 20240602): Stream {
  const r = rng(seed);
  const perSide = levels / 2;
  const st = newStream(levels + measured);
  st.start = levels;
  const live = new LiveSet(st.n);
  const mid = 6_500_000;
  const span = 2 * perSide; // ticks from the mid to the deepest level
  // The book: one order every other tick on each side, so half the prices in its depth are free.
  for (let k = 0; k < perSide; k++) {
    put(st, live, 2 * k, LIMIT, true, mid - 1 - 2 * k, 1 + Math.floor(r() * 20));
    put(st, live, 2 * k + 1, LIMIT, false, mid + 1 + 2 * k, 1 + Math.floor(r() * 20));
  }
  let m = mid;
  for (let i = levels; i < st.n; i++) {
    m += gauss(r) * 0.5;
    const buy = r() < 0.5;
    const u = r();
    const pCancel = cancelOdds(live.list.length, levels, 0.45);
    if (u < pCancel && live.list.length > 0) {
      // Any live order: cancels empty levels all through the book.
      put(st, live, i, CANCEL, buy, 0, 0, live.list[Math.floor(r() * live.list.length)]!);
    } else if (u < pCancel + 0.03) {
      put(st, live, i, MARKET, buy, 0, 1 + Math.floor(-Math.log(1 - r()) * 10));
    } else {
      const marketable = r() < 0.05;
      // A quarter near the top, the rest anywhere in the depth of the book.
      const d = marketable
        ? -Math.floor(r() * 4)
        : r() < 0.25
          ? 1 + Math.floor(-Math.log(1 - r()) * 25)
          : 1 + Math.floor(r() * span);
      put(st, live, i, LIMIT, buy, Math.round(buy ? m - d : m + d), 1 + Math.floor(-Math.log(1 - r()) * 20));
      if (marketable) st.counts.marketable++;
    }
  }
  return st;
}

function trim(st: Stream, n: number): Stream {
  return {
    ...st,
    n,
    kind: st.kind.subarray(0, n),
    buy: st.buy.subarray(0, n),
    price: st.price.subarray(0, n),
    qty: st.qty.subarray(0, n),
    ref: st.ref.subarray(0, n),
    ids: st.ids.slice(0, n),
  };
}

/**
 * Verdant with the server's sink: the command's events taken as an array and walked, as
 * apps/server/src/modules/spot does after each command.
 */
class Ours {
  readonly log = new EventLog();
  readonly book = new OrderBook(this.log);
  fills = 0;
  seen = 0;

  command(st: Stream, i: number): void {
    const k = st.kind[i];
    const id = st.ids[i]!;
    if (k === LIMIT) this.book.placeLimit(id, i, st.buy[i] ? 'buy' : 'sell', st.price[i]!, st.qty[i]!);
    else if (k === MARKET) this.book.placeMarket(id, i, st.buy[i] ? 'buy' : 'sell', st.qty[i]!);
    else this.book.cancel(st.ids[st.ref[i]!]!);
    for (const e of this.log.take() as EngineEvent[]) {
      switch (e.type) {
        case 'fill':
          this.fills++;
          break;
        default:
          this.seen++;
      }
    }
  }
}

class Peer {
  readonly book = new PeerBook();
  seen = 0;

  command(st: Stream, i: number): void {
    const k = st.kind[i];
    if (k === LIMIT)
      this.seen += this.book.limit({
        side: st.buy[i] ? PeerSide.BUY : PeerSide.SELL,
        id: st.ids[i]!,
        size: st.qty[i]!,
        price: st.price[i]!,
      }).done.length;
    else if (k === MARKET)
      this.seen += this.book.market({
        side: st.buy[i] ? PeerSide.BUY : PeerSide.SELL,
        size: st.qty[i]!,
      }).done.length;
    else this.book.cancel(st.ids[st.ref[i]!]!);
  }
}

interface Engine {
  command(st: Stream, i: number): void;
}

/** A fresh engine with the stream's prefix applied (not timed). */
function prepared<E extends Engine>(make: () => E, st: Stream): E {
  const e = make();
  for (let i = 0; i < st.start; i++) e.command(st, i);
  return e;
}

/**
 * Commands per second over the measured part: by the wall clock, and by the CPU time the process
 * was given (user + system, GC threads included), which a machine shared with other work does not
 * inflate.
 */
function throughput(e: Engine, st: Stream): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = st.start; i < st.n; i++) e.command(st, i);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  const n = st.n - st.start;
  return { wall: n / wall, cpu: n / ((c.user + c.system) / 1e6) };
}

/** Per-command latencies of the measured part, in ns, sorted. */
function latencies(e: Engine, st: Stream): Float64Array {
  const lat = new Float64Array(st.n - st.start);
  for (let i = st.start; i < st.n; i++) {
    const t0 = process.hrtime.bigint();
    e.command(st, i);
    lat[i - st.start] = Number(process.hrtime.bigint() - t0);
  }
  return lat.sort();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

export interface Latency {
  p50Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
}

const toLatency = (lat: Float64Array): Latency => ({
  p50Us: percentile(lat, 0.5) / 1000,
  p99Us: percentile(lat, 0.99) / 1000,
  p999Us: percentile(lat, 0.999) / 1000,
  maxUs: lat[lat.length - 1]! / 1000,
});

export interface StreamFigures {
  prefix: number;
  commands: number;
  mix: Stream['counts'];
  rounds: number;
  oursOpsPerS: number;
  peerOpsPerS: number;
  ratio: number;
  /** The same from CPU time (see `throughput`). */
  oursCpuOpsPerS: number;
  peerCpuOpsPerS: number;
  cpuRatio: number;
  ours: Latency;
  peer: Latency;
  fills: number;
  ordersAtStart: number;
  ordersAtEnd: number;
  levelsAtStart: number;
  levelsAtEnd: number;
  booksIdentical: boolean;
}

const levelsOf = (book: OrderBook) => {
  const d = book.depth(Number.MAX_SAFE_INTEGER);
  return d.bids.length + d.asks.length;
};

function measure(st: Stream, rounds: number): StreamFigures {
  // Warm up both (JIT), and check that they agree: same stream, same final book.
  const ours = prepared(() => new Ours(), st);
  const ordersAtStart = ours.book.size;
  const levelsAtStart = levelsOf(ours.book);
  for (let i = st.start; i < st.n; i++) ours.command(st, i);
  const peer = prepared(() => new Peer(), st);
  for (let i = st.start; i < st.n; i++) peer.command(st, i);
  const booksIdentical = sameBook(ours.book, peer.book);

  const oursRates: number[] = [];
  const peerRates: number[] = [];
  const oursCpu: number[] = [];
  const peerCpu: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const a = throughput(
      prepared(() => new Ours(), st),
      st,
    );
    oursRates.push(a.wall);
    oursCpu.push(a.cpu);
    const b = throughput(
      prepared(() => new Peer(), st),
      st,
    );
    peerRates.push(b.wall);
    peerCpu.push(b.cpu);
  }
  const oursLat = latencies(
    prepared(() => new Ours(), st),
    st,
  );
  const peerLat = latencies(
    prepared(() => new Peer(), st),
    st,
  );
  return {
    prefix: st.start,
    commands: st.n - st.start,
    mix: st.counts,
    rounds,
    oursOpsPerS: median(oursRates),
    peerOpsPerS: median(peerRates),
    ratio: median(oursRates) / median(peerRates),
    oursCpuOpsPerS: median(oursCpu),
    peerCpuOpsPerS: median(peerCpu),
    cpuRatio: median(oursCpu) / median(peerCpu),
    ours: toLatency(oursLat),
    peer: toLatency(peerLat),
    fills: ours.fills,
    ordersAtStart,
    ordersAtEnd: ours.book.size,
    levelsAtStart,
    levelsAtEnd: levelsOf(ours.book),
    booksIdentical,
  };
}

export interface EngineFigures {
  steady: StreamFigures;
  deep: StreamFigures;
  timerOverheadUs: number;
  /** The machine's 1-minute load average when the section started, and its CPU count. */
  load: number;
  cpus: number;
}

export async function engineBench({
  steadyCommands = 200_000,
  steadyOrders = 20_000,
  deepCommands = 100_000,
  deepLevels = 100_000,
  rounds = 5,
} = {}): Promise<EngineFigures> {
  const load = loadavg()[0]!;
  const steady = measure(makeSteadyStream(steadyCommands, steadyOrders), rounds);
  const deep = measure(makeDeepStream(deepCommands, deepLevels), rounds);
  // What two back-to-back timer reads cost, measured the same way.
  const empty = new Float64Array(100_000);
  for (let i = 0; i < empty.length; i++) {
    const t0 = process.hrtime.bigint();
    empty[i] = Number(process.hrtime.bigint() - t0);
  }
  empty.sort();
  return { steady, deep, timerOverheadUs: percentile(empty, 0.5) / 1000, load, cpus: availableParallelism() };
}

/** Both books hold the same lots at the same prices. */
function sameBook(ours: OrderBook, peer: PeerBook): boolean {
  const d = ours.depth(Number.MAX_SAFE_INTEGER);
  const [asks, bids] = peer.depth();
  const norm = (levels: [number, number][], desc: boolean) =>
    JSON.stringify([...levels].sort((x, y) => (desc ? y[0] - x[0] : x[0] - y[0])));
  return (
    norm(
      d.bids.map((l) => [l.price, l.qty]),
      true,
    ) === norm(bids, true) &&
    norm(
      d.asks.map((l) => [l.price, l.qty]),
      false,
    ) === norm(asks, false)
  );
}
