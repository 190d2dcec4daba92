import type { ConfigContract, ConfigContractBody, Lang } from '@verdant/api';
import { checkSpec, dec } from '@verdant/engine';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';
import { auditedChange, ConfigFields, type OperatorSession } from '../admin/service.ts';
import type { MarketService } from '../market/service.ts';

/** Largest fee rate an operator may set (10 %): a typo is refused, not charged. */
const MAX_FEE = '0.1';
/** Largest leverage multiple, and how many a market may offer. */
const MAX_MULTIPLE = 200;
const MAX_MULTIPLES = 12;

interface Row {
  id: number;
  market_id: number;
  lot_value: string;
  multiples: number[];
  open_fee_rate: string;
  close_fee_rate: string;
  maintenance_rate: string;
  enabled: boolean;
}

const COLUMNS = `id, market_id, lot_value::text, multiples, open_fee_rate::text, close_fee_rate::text,
  maintenance_rate::text, enabled`;

/**
 * Operators' side of contract markets (issue 23): lot value, leverage multiples, fees and the
 * maintenance rate. Each position copies these when opened (migration 0011), so a change
 * reaches new orders only; the liquidation price of an open position never moves by it.
 */
export function contractConfig(ctx: AppContext, market: MarketService) {
  const { db } = ctx;

  async function toApi(rows: Row[]): Promise<ConfigContract[]> {
    const ms = await market.allMarkets();
    return rows.flatMap((r) => {
      const m = ms.find((x) => x.id === r.market_id);
      return m
        ? [
            {
              id: r.id,
              symbol: m.symbol,
              name: `${m.base}/${m.quote}`,
              lot_value: canon(r.lot_value),
              multiples: [...r.multiples].sort((a, b) => a - b),
              open_fee_rate: canon(r.open_fee_rate),
              close_fee_rate: canon(r.close_fee_rate),
              maintenance_rate: canon(r.maintenance_rate),
              enabled: r.enabled,
            },
          ]
        : [];
    });
  }

  return {
    async list(): Promise<ConfigContract[]> {
      return toApi(await db.query<Row>(`SELECT ${COLUMNS} FROM contract_markets ORDER BY sort, id`));
    },

    async save(
      op: OperatorSession,
      ip: string,
      body: ConfigContractBody,
      lang: Lang,
    ): Promise<ConfigContract> {
      const f = new ConfigFields(body, lang);
      const id = f.integer('id', 1, 999_999_999);
      const lotValue = f.decimal('lot_value', { min: '0', max: '1000000', above: true, places: 18 });
      const parts = f
        .text('multiples', 100)
        .split(/[\s,]+/)
        .filter(Boolean);
      if (parts.length > MAX_MULTIPLES || !parts.every((p) => /^\d{1,3}$/.test(p)))
        throw f.fail('multiples', 'multiples', { max: MAX_MULTIPLE, count: MAX_MULTIPLES });
      const multiples = [...new Set(parts.map(Number))].sort((a, b) => a - b);
      if (multiples.some((m) => m < 1 || m > MAX_MULTIPLE))
        throw f.fail('multiples', 'multiples', { max: MAX_MULTIPLE, count: MAX_MULTIPLES });
      const openFee = f.decimal('open_fee_rate', { min: '0', max: MAX_FEE, places: 8 });
      const closeFee = f.decimal('close_fee_rate', { min: '0', max: MAX_FEE, places: 8 });
      const maintenance = f.decimal('maintenance_rate', { min: '0', max: '0.99', above: true, places: 8 });
      const top = multiples[multiples.length - 1]!;
      // the engine's own rule: a new position must not open at or below its liquidation level
      if (
        checkSpec({
          lotValue,
          multiples,
          openFeeRate: openFee,
          closeFeeRate: closeFee,
          maintenanceRate: maintenance,
          maxLotsPerOrder: 1,
          maxLotsPerUser: 1,
          maxOpenPositions: 1,
          decimals: 0,
          tickSize: '1',
        }) !== null
      )
        throw f.fail('maintenance_rate', 'belowInitialMargin', {
          max: canon(dec('1').div(String(top)).toFixed(8)),
          multiple: top,
        });
      const read = async (q: Queryable) => {
        const [r] = await q.query<Row>(`SELECT ${COLUMNS} FROM contract_markets WHERE id = $1 FOR UPDATE`, [
          id,
        ]);
        return r ? ((await toApi([r]))[0] ?? null) : null;
      };
      const after = await auditedChange(db, {
        op,
        ip,
        action: 'config.contract.save',
        targetType: 'contract_market',
        targetId: id,
        read,
        write: async (q, before) => {
          if (!before) throw f.fail('id', 'unknown');
          await q.query(
            `UPDATE contract_markets SET lot_value = $2, multiples = $3::int[], open_fee_rate = $4,
                    close_fee_rate = $5, maintenance_rate = $6 WHERE id = $1`,
            [id, lotValue, multiples, openFee, closeFee, maintenance],
          );
        },
      });
      await ctx.changes.changed('contracts');
      return after;
    },
  };
}
