import type { ConfigMarketMaker, ConfigMarketMakerBody, Lang } from '@verdant/api';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { auditedChange, ConfigFields, type OperatorSession } from '../admin/service.ts';
import { makerSettings } from './maker.ts';

/**
 * Operators' side of the house market maker (issue 23): its spread and the value of each quote.
 * It quotes through the same order service as everyone; nothing here sets a price or a fill.
 */
export function makerConfig(ctx: AppContext) {
  const { db, config } = ctx;
  const read = async (q: Queryable): Promise<ConfigMarketMaker> => {
    const s = await makerSettings(q, config.marketMaker);
    return {
      spread_bps: s.spreadBps,
      size_quote: s.sizeQuote,
      from_environment: s.fromEnvironment,
      updated_at: s.updatedAt?.toISOString() ?? null,
    };
  };

  return {
    get: () => read(db),

    async save(
      op: OperatorSession,
      ip: string,
      body: ConfigMarketMakerBody,
      lang: Lang,
    ): Promise<ConfigMarketMaker> {
      const f = new ConfigFields(body, lang);
      const spread = f.integer('spread_bps', 1, 5000);
      const size = f.decimal('size_quote', { min: '0', max: '10000000', above: true, places: 8 });
      const after = await auditedChange(db, {
        op,
        ip,
        action: 'config.market_maker.save',
        targetType: 'market_maker',
        targetId: 'house',
        read: async (q) => {
          await q.query('SELECT 1 FROM market_maker_settings FOR UPDATE');
          return read(q);
        },
        write: async (q) => {
          await q.query(
            `INSERT INTO market_maker_settings (id, spread_bps, size_quote) VALUES (true, $1, $2)
             ON CONFLICT (id) DO UPDATE SET spread_bps = $1, size_quote = $2, updated_at = now()`,
            [spread, size],
          );
        },
      });
      await ctx.changes.changed('maker');
      return after;
    },
  };
}
