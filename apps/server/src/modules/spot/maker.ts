import { dec } from '@verdant/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';
import { type Leg, post } from '../../ledger/ledger.ts';
import type { Market, MarketService } from '../market/service.ts';
import { ensureSystemUser } from '../user/service.ts';
import type { SpotService } from './service.ts';

export const MARKET_MAKER_EMAIL = 'market-maker@verdant.system';

/**
 * The house market maker: a real user row flagged as system, funded once from the house
 * 'treasury' account, quoting both sides of every book around the index price through the same
 * order service, engine and ledger as any user. It cannot log in (its password hash is not a
 * hash) and gets no favours: its orders queue, freeze, pay fees and self-trade-prevent like
 * everyone's.
 */
export async function ensureMarketMaker(
  db: Db,
  markets: readonly Market[],
  cfg: Config['marketMaker'],
): Promise<number> {
  return db.tx(async (q) => {
    const { id, created } = await ensureSystemUser(q, {
      email: MARKET_MAKER_EMAIL,
      nickname: 'Verdant market maker',
      inviteCode: 'SYSTEMMM',
    });
    if (!created) return id;
    const legs: Leg[] = [];
    const give = (currencyId: number, amount: string) => {
      legs.push({ account: { userId: id, type: 'spot', currencyId }, available: amount });
      legs.push({ account: { house: 'treasury', currencyId }, available: `-${amount}` });
    };
    const quotes = new Set<number>();
    for (const m of markets) {
      quotes.add(m.quoteCurrencyId);
      // the same value of the base coin, at the market's reference price, on its lot grid
      const lots = dec(cfg.fundQuote).div(m.simPrice).div(m.lotSize).floor();
      if (lots.gt(0)) give(m.baseCurrencyId, lots.times(m.lotSize).toFixed());
    }
    for (const c of quotes) give(c, dec(cfg.fundQuote).toFixed());
    await post(q, { reason: 'market_maker_funding', refType: 'user', refId: id, legs });
    return id;
  });
}

/** The quoting operators set (migration 0020), else the environment's (MM_SPREAD_BPS, MM_SIZE_QUOTE). */
export interface MakerSettings {
  spreadBps: number;
  sizeQuote: string;
  /** Never edited: the environment's values apply. */
  fromEnvironment: boolean;
  updatedAt: Date | null;
}

export async function makerSettings(q: Queryable, cfg: Config['marketMaker']): Promise<MakerSettings> {
  const [row] = await q.query<{ spread_bps: number; size_quote: string; updated_at: Date }>(
    `SELECT spread_bps, size_quote::text, updated_at FROM market_maker_settings`,
  );
  return row
    ? {
        spreadBps: row.spread_bps,
        sizeQuote: canon(row.size_quote),
        fromEnvironment: false,
        updatedAt: row.updated_at,
      }
    : { spreadBps: cfg.spreadBps, sizeQuote: cfg.sizeQuote, fromEnvironment: true, updatedAt: null };
}

/** Quotes on a timer; `refresh()` runs one round by hand (tests). */
export class MarketMaker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  /** The index each market was last quoted around. */
  private readonly quotedAt = new Map<number, string>();
  /** Spread and size in force: the environment's until `useSettings` reads the operators'. */
  private quoting: { spreadBps: number; sizeQuote: string };

  constructor(
    readonly userId: number,
    private readonly spot: SpotService,
    private readonly market: MarketService,
    private readonly cfg: Config['marketMaker'],
    private readonly log: FastifyBaseLogger,
  ) {
    this.quoting = { spreadBps: cfg.spreadBps, sizeQuote: cfg.sizeQuote };
  }

  /**
   * Takes the operators' spread and size (at start, and after each change: app.ts hooks it to
   * the configuration changes); every market is quoted again at the next round.
   */
  async useSettings(db: Db): Promise<void> {
    const s = await makerSettings(db, this.cfg);
    this.quoting = { spreadBps: s.spreadBps, sizeQuote: s.sizeQuote };
    this.quotedAt.clear();
  }

  start(): void {
    if (this.stopped || this.timer) return;
    const loop = () => {
      this.running = this.refresh()
        .catch((err) => this.log.error({ err }, 'market maker'))
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.timer = setTimeout(loop, this.cfg.refreshMs);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Moves the quotes of every market whose index moved (or whose quotes were taken). */
  async refresh(): Promise<void> {
    for (const m of await this.market.markets()) {
      const index = await this.market.indexAt(m.id);
      if (!index) continue;
      const open = await this.spot.openOrders(this.userId, m.id);
      if (this.quotedAt.get(m.id) === index.price && open.length === 2 * this.cfg.levels) continue;
      // One batch, the cancels first: the new ladder never meets the old one, and the book is
      // never without quotes in between.
      const answers = await this.spot.replace(
        this.userId,
        open.map((o) => o.id),
        this.ladder(m, index.price),
      );
      const failed = answers.slice(open.length).filter((p) => p.status === 'rejected').length;
      if (failed > 0) this.log.debug({ market: m.symbol, failed }, 'market maker: some quotes refused');
      this.quotedAt.set(m.id, index.price);
    }
  }

  /** Bids below and asks above the index, on the market's grid, each worth about sizeQuote. */
  ladder(
    m: Market,
    index: string,
  ): { symbol: string; side: string; type: string; price: string; qty: string }[] {
    const out: { symbol: string; side: string; type: string; price: string; qty: string }[] = [];
    const tick = dec(m.tickSize);
    for (let i = 0; i < this.cfg.levels; i++) {
      const bps = this.quoting.spreadBps + i * this.cfg.stepBps;
      for (const side of ['buy', 'sell'] as const) {
        const raw = dec(index)
          .times(side === 'buy' ? 10_000 - bps : 10_000 + bps)
          .div(10_000);
        // bids round down and asks up to the tick: never inside the spread asked for
        const ticks = side === 'buy' ? raw.div(tick).floor() : raw.div(tick).ceil();
        if (ticks.lt(1)) continue;
        const price = ticks.times(tick);
        const lots = dec(this.quoting.sizeQuote).div(price).div(m.lotSize).floor();
        if (lots.lt(1)) continue;
        out.push({
          symbol: m.symbol,
          side,
          type: 'limit',
          price: price.toFixed(),
          qty: lots.times(m.lotSize).toFixed(),
        });
      }
    }
    return out;
  }
}
