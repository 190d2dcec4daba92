import type { ConfigOptionSeconds, ConfigOptionSecondsBody, Lang } from '@verdant/api';
import { compareDecimal } from '@verdant/engine';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';
import { auditedChange, ConfigFields, type OperatorSession } from '../admin/service.ts';
import type { MarketService } from '../market/service.ts';

interface Row {
  market_id: number;
  seconds: number;
  profit_ratio: string;
  fee_rate: string;
  min_amount: string;
  max_amount: string;
  enabled: boolean;
}

const COLUMNS = `market_id, seconds, profit_ratio::text, fee_rate::text, min_amount::text, max_amount::text, enabled`;

/**
 * Operators' side of the delivery times (issue 23): list every one, add one, change its ratio,
 * fee and stake range, or take it off sale. An order keeps the ratio and fee it was bought with
 * (copied onto it, migration 0010), so no change here alters an order already bought. The H5
 * reads the table on each request: the next `microtrade/seconds` shows the change.
 */
export function optionConfig(ctx: AppContext, market: MarketService) {
  const { db } = ctx;

  async function toApi(rows: Row[]): Promise<ConfigOptionSeconds[]> {
    const ms = await market.allMarkets();
    return rows.flatMap((r) => {
      const m = ms.find((x) => x.id === r.market_id);
      if (!m) return [];
      return [
        {
          market_id: r.market_id,
          symbol: m.symbol,
          name: `${m.base}/${m.quote}`,
          seconds: r.seconds,
          profit_ratio: canon(r.profit_ratio),
          fee_rate: canon(r.fee_rate),
          min_amount: canon(r.min_amount),
          max_amount: canon(r.max_amount),
          enabled: r.enabled,
        },
      ];
    });
  }

  return {
    async list(): Promise<ConfigOptionSeconds[]> {
      return toApi(await db.query<Row>(`SELECT ${COLUMNS} FROM option_seconds ORDER BY market_id, seconds`));
    },

    /** Adds the delivery time, or changes it when the market already has it; audited. */
    async save(
      op: OperatorSession,
      ip: string,
      body: ConfigOptionSecondsBody,
      lang: Lang,
    ): Promise<ConfigOptionSeconds> {
      const f = new ConfigFields(body, lang);
      if (!(body.symbol ?? '').trim()) throw f.fail('symbol', 'required');
      const m = (await market.allMarkets()).find(
        (x) =>
          x.symbol ===
          (body.symbol ?? '')
            .trim()
            .toLowerCase()
            .replace(/[/_\-\s]/g, ''),
      );
      if (!m) throw f.fail('symbol', 'unknown');
      const seconds = f.integer('seconds', 5, 86_400);
      const ratio = f.decimal('profit_ratio', { min: '0', max: '10', above: true, places: 8 });
      const fee = f.decimal('fee_rate', { min: '0', max: '0.99999999', places: 8 });
      const min = f.decimal('min_amount', { min: '0', max: '1000000000', above: true, places: 8 });
      const max = f.decimal('max_amount', { min: '0', max: '1000000000', above: true, places: 8 });
      if (compareDecimal(max, min) < 0) throw f.fail('max_amount', 'notBelow', { min });
      const enabled = f.flag('enabled', true);
      const read = async (q: Queryable) => {
        const [r] = await q.query<Row>(
          `SELECT ${COLUMNS} FROM option_seconds WHERE market_id = $1 AND seconds = $2 FOR UPDATE`,
          [m.id, seconds],
        );
        return r ? (await toApi([r]))[0]! : null;
      };
      const after = await auditedChange(db, {
        op,
        ip,
        action: 'config.option_seconds.save',
        targetType: 'option_seconds',
        targetId: `${m.symbol}:${seconds}`,
        read,
        write: async (q) => {
          await q.query(
            `INSERT INTO option_seconds (market_id, seconds, profit_ratio, fee_rate, min_amount, max_amount, enabled)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (market_id, seconds) DO UPDATE SET profit_ratio = EXCLUDED.profit_ratio,
               fee_rate = EXCLUDED.fee_rate, min_amount = EXCLUDED.min_amount,
               max_amount = EXCLUDED.max_amount, enabled = EXCLUDED.enabled`,
            [m.id, seconds, ratio, fee, min, max, enabled],
          );
        },
      });
      await ctx.changes.changed('options');
      return after;
    },
  };
}
