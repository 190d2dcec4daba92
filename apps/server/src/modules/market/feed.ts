import { dec } from '@verdant/engine';
import type { Market } from './markets.ts';
import { step, type WalkParams } from './sim.ts';

/**
 * Where index prices come from. The feed asks its source for the latest prices on a timer and
 * records them; the source may compute them (the simulator) or keep the latest of a real
 * exchange's stream and answer with it. Prices are decimal strings of any precision: the feed
 * puts them on each market's tick grid before recording.
 */
export interface IndexSource {
  /** Recorded with every tick ('sim' for the simulator). */
  readonly name: string;
  /** Where a market's price stands after a restart (the last recorded price and its time). */
  resume?(marketId: number, price: string, atMs: number): void;
  /** Prices at `atMs` for the markets it knows; a market it has nothing new for is left out. */
  quote(markets: readonly Market[], atMs: number): Promise<Map<number, string>> | Map<number, string>;
}

export const walkParams = (m: Market): WalkParams => ({
  marketId: m.id,
  volatility: Number(m.simVolatility),
  reference: Number(m.simPrice),
});

/** The default source: the seeded random walk of sim.ts, one step per call. */
export class SimSource implements IndexSource {
  readonly name = 'sim';
  private readonly state = new Map<number, { price: number; at: number }>();
  constructor(readonly seed: number) {}

  resume(marketId: number, price: string, atMs: number): void {
    this.state.set(marketId, { price: Number(price), at: atMs });
  }

  quote(markets: readonly Market[], atMs: number): Map<number, string> {
    const out = new Map<number, string>();
    for (const m of markets) {
      const s = this.state.get(m.id) ?? { price: Number(m.simPrice), at: atMs };
      const price = step(s.price, walkParams(m), this.seed, atMs, atMs - s.at);
      this.state.set(m.id, { price, at: atMs });
      out.set(m.id, price.toPrecision(15));
    }
    return out;
  }
}

/** A price rounded half-up to the nearest multiple of the tick size, never below one tick. */
export function roundToTick(price: string, tickSize: string): string {
  const steps = dec(price).div(tickSize).toDecimalPlaces(0, 4 /* ROUND_HALF_UP */);
  return dec(tickSize)
    .times(steps.lt(1) ? 1 : steps)
    .toFixed();
}

export interface FeedSink {
  /** Records one round of ticks (decimal strings on the tick grid) and publishes them. */
  recordTicks(prices: Map<number, string>, atMs: number, source: string): Promise<void>;
  markets(): Promise<readonly Market[]>;
}

/** Asks the source every `intervalMs` and records what it answers; `tick()` drives it by hand. */
export class IndexFeed {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    readonly source: IndexSource,
    private readonly sink: FeedSink,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** One round at `atMs`: the prices recorded, by market id. */
  async tick(atMs = Date.now()): Promise<Map<number, string>> {
    const markets = await this.sink.markets();
    const raw = await this.source.quote(markets, atMs);
    const prices = new Map<number, string>();
    for (const m of markets) {
      const p = raw.get(m.id);
      if (p !== undefined) prices.set(m.id, roundToTick(p, m.tickSize));
    }
    if (prices.size > 0) await this.sink.recordTicks(prices, atMs, this.source.name);
    return prices;
  }

  /**
   * Starts the timer (nothing when the interval is 0). Rounds never overlap. A stopped feed
   * starts again (its singleton job came back to this process).
   */
  start(): void {
    if (this.intervalMs <= 0 || this.timer || this.running) return;
    this.stopped = false;
    const loop = () => {
      this.running = this.tick()
        .catch(this.onError)
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.timer = setTimeout(loop, this.intervalMs);
        });
    };
    this.timer = setTimeout(loop, this.intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
