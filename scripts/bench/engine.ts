/**
 * The matching engine beside a peer: Verdant's `OrderBook` (packages/engine) and the npm package
 * `nodejs-order-book`, fed the same seeded command stream in the same process.
 *
 * The stream: a mid price that walks randomly (in ticks); limit orders on both sides at a distance
 * from the mid drawn from an exponential law (most near the top of the book), some of them
 * marketable; market orders; cancels of earlier orders (some already filled, as in real traffic).
 * Every order has its own owner, so self-trade prevention never fires and both books must end up
 * identical, which the run checks.
 *
 * Throughput: the whole stream on a fresh book, no timer inside the loop, several rounds per engine
 * (engines alternate), median. Latency: the stream again on a fresh book of the already warmed-up
 * engine, `process.hrtime.bigint()` around each command (the figure includes the timer's own cost,
 * which is reported beside it).
 */
import { type EngineSink, OrderBook } from '@verdant/engine';
import { OrderBook as PeerBook, Side as PeerSide } from 'nodejs-order-book';

const LIMIT = 0;
const MARKET = 1;
const CANCEL = 2;

interface Stream {
  n: number;
  kind: Uint8Array;
  buy: Uint8Array;
  price: Float64Array;
  qty: Float64Array;
  /** Index of the order a command places, or of the order a cancel names. */
  ref: Int32Array;
  ids: string[];
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

export function makeStream(n: number, seed = 20240601): Stream {
  const r = rng(seed);
  const st: Stream = {
    n,
    kind: new Uint8Array(n),
    buy: new Uint8Array(n),
    price: new Float64Array(n),
    qty: new Float64Array(n),
    ref: new Int32Array(n),
    ids: [],
    counts: { limit: 0, marketable: 0, market: 0, cancel: 0 },
  };
  // BTC/USDT-like: 65,000.00 with a tick of 0.01 is 6,500,000 ticks; lots of 0.0001 BTC.
  let mid = 6_500_000;
  const placed: number[] = []; // limit orders that a later cancel may name
  for (let i = 0; i < n; i++) {
    // Random walk of the mid: a normal step of 0.5 tick per command (kept in fractions, quoted whole).
    const g = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    mid = Math.max(1000, mid + g * 0.5);
    const u = r();
    const buy = r() < 0.5;
    st.buy[i] = buy ? 1 : 0;
    st.ids.push(String(i + 1));
    st.ref[i] = i;
    if (u < 0.15 && placed.length > 0) {
      // Cancel: mostly recent orders (traders re-quote), sometimes old ones.
      const back = Math.min(placed.length, r() < 0.8 ? 200 : placed.length);
      const k = placed.length - 1 - Math.floor(r() * back);
      st.kind[i] = CANCEL;
      st.ref[i] = placed[k]!;
      placed[k] = placed[placed.length - 1]!;
      placed.pop();
      st.counts.cancel++;
    } else if (u < 0.2) {
      st.kind[i] = MARKET;
      st.qty[i] = 1 + Math.floor(-Math.log(1 - r()) * 10);
      st.counts.market++;
    } else {
      st.kind[i] = LIMIT;
      const marketable = r() < 0.12;
      // Distance from the mid in ticks: exponential, mean 25 ticks; marketable ones cross by a few.
      const d = marketable ? -Math.floor(r() * 8) : 1 + Math.floor(-Math.log(1 - r()) * 25);
      st.price[i] = Math.round(buy ? mid - d : mid + d);
      st.qty[i] = 1 + Math.floor(-Math.log(1 - r()) * 20);
      placed.push(i);
      st.counts.limit++;
      if (marketable) st.counts.marketable++;
    }
  }
  return st;
}

/** A sink that only counts, so the figure is the engine's own cost. */
class CountingSink implements EngineSink {
  fills = 0;
  lots = 0;
  accepted(): void {}
  fill(_m: unknown, _t: unknown, _p: number, qty: number): void {
    this.fills++;
    this.lots += qty;
  }
  rested(): void {}
  done(): void {}
}

function runOurs(st: Stream, book: OrderBook): void {
  const { kind, buy, price, qty, ref, ids } = st;
  for (let i = 0; i < st.n; i++) {
    const k = kind[i];
    if (k === LIMIT) book.placeLimit(ids[i]!, i, buy[i] ? 'buy' : 'sell', price[i]!, qty[i]!);
    else if (k === MARKET) book.placeMarket(ids[i]!, i, buy[i] ? 'buy' : 'sell', qty[i]!);
    else book.cancel(ids[ref[i]!]!);
  }
}

function runPeer(st: Stream, book: PeerBook): void {
  const { kind, buy, price, qty, ref, ids } = st;
  for (let i = 0; i < st.n; i++) {
    const k = kind[i];
    if (k === LIMIT)
      book.limit({
        side: buy[i] ? PeerSide.BUY : PeerSide.SELL,
        id: ids[i]!,
        size: qty[i]!,
        price: price[i]!,
      });
    else if (k === MARKET) book.market({ side: buy[i] ? PeerSide.BUY : PeerSide.SELL, size: qty[i]! });
    else book.cancel(ids[ref[i]!]!);
  }
}

function timeRun(run: () => void): number {
  const t0 = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

export interface EngineFigures {
  commands: number;
  mix: Stream['counts'];
  rounds: number;
  oursOpsPerS: number;
  peerOpsPerS: number;
  ratio: number;
  p50Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  timerOverheadUs: number;
  /** Throughput of the timed latency run itself (timers included). */
  timedOpsPerS: number;
  fills: number;
  restingAtEnd: number;
  levelsAtEnd: number;
  booksIdentical: boolean;
}

export async function engineBench({
  commands = 400_000,
  rounds = 5,
  seed = 20240601,
} = {}): Promise<EngineFigures> {
  const st = makeStream(commands, seed);

  // Warm up both (JIT), and check that they agree: same stream, same final book.
  const sink = new CountingSink();
  const ours = new OrderBook(sink);
  runOurs(st, ours);
  const peer = new PeerBook();
  runPeer(st, peer);
  const booksIdentical = sameBook(ours, peer);

  const oursRates: number[] = [];
  const peerRates: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const a = new OrderBook(new CountingSink());
    oursRates.push(commands / timeRun(() => runOurs(st, a)));
    const b = new PeerBook();
    peerRates.push(commands / timeRun(() => runPeer(st, b)));
  }

  // Per-command latency on the warmed-up engine.
  const lat = new Float64Array(commands);
  const book = new OrderBook(new CountingSink());
  const { kind, buy, price, qty, ref, ids } = st;
  const tStart = process.hrtime.bigint();
  for (let i = 0; i < commands; i++) {
    const k = kind[i];
    const t0 = process.hrtime.bigint();
    if (k === LIMIT) book.placeLimit(ids[i]!, i, buy[i] ? 'buy' : 'sell', price[i]!, qty[i]!);
    else if (k === MARKET) book.placeMarket(ids[i]!, i, buy[i] ? 'buy' : 'sell', qty[i]!);
    else book.cancel(ids[ref[i]!]!);
    lat[i] = Number(process.hrtime.bigint() - t0);
  }
  const timedOpsPerS = commands / (Number(process.hrtime.bigint() - tStart) / 1e9);
  lat.sort();

  // What two back-to-back timer reads cost, measured the same way.
  const empty = new Float64Array(100_000);
  for (let i = 0; i < empty.length; i++) {
    const t0 = process.hrtime.bigint();
    empty[i] = Number(process.hrtime.bigint() - t0);
  }
  empty.sort();

  const depth = book.depth(1_000_000);
  return {
    commands,
    mix: st.counts,
    rounds,
    oursOpsPerS: median(oursRates),
    peerOpsPerS: median(peerRates),
    ratio: median(oursRates) / median(peerRates),
    p50Us: percentile(lat, 0.5) / 1000,
    p99Us: percentile(lat, 0.99) / 1000,
    p999Us: percentile(lat, 0.999) / 1000,
    maxUs: lat[lat.length - 1]! / 1000,
    timerOverheadUs: percentile(empty, 0.5) / 1000,
    timedOpsPerS,
    fills: sink.fills,
    restingAtEnd: book.size,
    levelsAtEnd: depth.bids.length + depth.asks.length,
    booksIdentical,
  };
}

/** Both books hold the same lots at the same prices. */
function sameBook(ours: OrderBook, peer: PeerBook): boolean {
  const d = ours.depth(1_000_000);
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
