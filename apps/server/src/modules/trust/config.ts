import {
  type ConfigTrustProduct,
  type ConfigTrustProductBody,
  LANGS,
  type Lang,
  TRUST_PENALTY_RULE_NAMES,
  TRUST_PRODUCT_STATES,
} from '@verdant/api';
import { compareDecimal } from '@verdant/engine';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';
import { AppError } from '../../http/errors.ts';
import { currenciesById } from '../../ledger/currencies.ts';
import {
  auditedChange,
  ConfigFields,
  type ConfigForm,
  type OperatorSession,
  writeAudit,
} from '../admin/service.ts';

interface Row {
  id: number;
  name: Record<string, string>;
  currency_id: number;
  term_days: number;
  min_amount: string;
  daily_rate: string;
  state: ConfigTrustProduct['state'];
  capacity: string;
  sold: string;
  penalty_rule: ConfigTrustProduct['penalty_rule'];
  penalty_rate: string;
  sort: number;
  orders: number;
}

const SELECT = `SELECT p.id, p.name, p.currency_id, p.term_days, p.min_amount::text, p.daily_rate::text, p.state,
  p.capacity::text, p.sold::text, p.penalty_rule, p.penalty_rate::text, p.sort,
  (SELECT count(*)::int FROM trust_orders o WHERE o.product_id = p.id) AS orders
  FROM trust_products p`;

/** Names per language from name_th … name_hk: English required, the rest optional (they fall back to it). */
function namesOf(f: ConfigFields, prefix: string, max: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of LANGS) {
    const v = f.text(`${prefix}_${l}`, max, l === 'en');
    if (v) out[l] = v;
  }
  return out;
}

/**
 * Operators' side of the deposit products (issue 23): list, create, edit; audited before and
 * after. An order copies its term, rate and penalty rule at purchase (migration 0013), so edits
 * reach new purchases only; the currency is fixed once a product has an order and the capacity
 * never drops below what is sold (docs/decisions.md, "Deposit products and projects"). The H5
 * reads the table on each request.
 */
export function trustConfig(ctx: AppContext) {
  const { db } = ctx;

  async function toApi(rows: Row[], q: Queryable = db): Promise<ConfigTrustProduct[]> {
    const cs = await currenciesById(q);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      currency: cs.get(r.currency_id)?.symbol ?? '',
      term_days: r.term_days,
      min_amount: canon(r.min_amount),
      daily_rate: canon(r.daily_rate),
      state: r.state,
      capacity: canon(r.capacity),
      sold: canon(r.sold),
      penalty_rule: r.penalty_rule,
      penalty_rate: canon(r.penalty_rate),
      sort: r.sort,
      orders: r.orders,
    }));
  }

  return {
    async list(): Promise<ConfigTrustProduct[]> {
      return toApi(await db.query<Row>(`${SELECT} ORDER BY p.sort, p.id`));
    },

    /** Creates a product (no id) or edits one; every field checked first, named in the operator's language. */
    async save(
      op: OperatorSession,
      ip: string,
      body: ConfigTrustProductBody,
      lang: Lang,
    ): Promise<ConfigTrustProduct> {
      const form = body as ConfigForm;
      const f = new ConfigFields(form, lang);
      const id = (body.id ?? '').trim() ? f.integer('id', 1, 2_000_000_000) : null;
      const name = namesOf(f, 'name', 120);
      const symbol = f.text('currency', 20).toUpperCase();
      const currency = [...(await currenciesById(db)).values()].find((c) => c.symbol === symbol);
      if (!currency) throw f.fail('currency', 'unknown');
      const termDays = f.integer('term_days', 1, 3650);
      const minAmount = f.decimal('min_amount', {
        min: '0',
        max: '1000000000',
        above: true,
        places: currency.decimals,
      });
      const dailyRate = f.decimal('daily_rate', { min: '0', max: '0.99999999', above: true, places: 8 });
      const state = f.text('state', 20);
      if (!(TRUST_PRODUCT_STATES as readonly string[]).includes(state)) throw f.fail('state', 'unknown');
      const capacity = f.decimal('capacity', {
        min: '0',
        max: '1000000000000',
        above: true,
        places: currency.decimals,
      });
      const rule = f.text('penalty_rule', 20);
      if (!(TRUST_PENALTY_RULE_NAMES as readonly string[]).includes(rule))
        throw f.fail('penalty_rule', 'unknown');
      const penaltyRate = f.decimal('penalty_rate', { min: '0', max: '100', places: 8 });
      const sort = (body.sort ?? '').trim() ? f.integer('sort', 0, 9999) : 0;

      const values = (productId: number) => [
        productId,
        JSON.stringify(name),
        currency.id,
        termDays,
        minAmount,
        dailyRate,
        state,
        capacity,
        rule,
        penaltyRate,
        sort,
      ];
      const read = async (q: Queryable, which: number) => {
        const [r] = await q.query<Row>(`${SELECT} WHERE p.id = $1`, [which]);
        return r ? (await toApi([r], q))[0]! : null;
      };
      if (id === null)
        // a new product: the next id, taken with the table locked against a second creation
        return db.tx(async (q) => {
          await q.query('LOCK TABLE trust_products IN SHARE ROW EXCLUSIVE MODE');
          const [n] = await q.query<{ id: number }>(
            'SELECT coalesce(max(id), 0) + 1 AS id FROM trust_products',
          );
          await q.query(
            `INSERT INTO trust_products (id, name, currency_id, term_days, min_amount, daily_rate, state, capacity,
                                         penalty_rule, penalty_rate, sort)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
            values(n!.id),
          );
          const after = (await read(q, n!.id))!;
          await writeAudit(q, {
            operatorId: op.id,
            action: 'trust.product.create',
            targetType: 'trust_product',
            targetId: after.id,
            before: null,
            after,
            ip,
          });
          return after;
        });
      return auditedChange(db, {
        op,
        ip,
        action: 'trust.product.edit',
        targetType: 'trust_product',
        targetId: id,
        // the row locked: a purchase taking capacity waits for the edit, and the other way round
        read: async (q) => {
          await q.query('SELECT 1 FROM trust_products WHERE id = $1 FOR UPDATE', [id]);
          return read(q, id);
        },
        write: async (q, before) => {
          if (!before) throw new AppError('NOT_FOUND', 'errors.notFound', {}, 'id');
          if (before.orders > 0 && before.currency !== currency.symbol)
            throw f.fail('currency', 'fixedOnceOrders');
          if (compareDecimal(capacity, before.sold) < 0)
            throw f.fail('capacity', 'notBelowSold', { sold: before.sold });
          await q.query(
            `UPDATE trust_products SET name = $2, currency_id = $3, term_days = $4, min_amount = $5, daily_rate = $6,
                    state = $7, capacity = $8, penalty_rule = $9, penalty_rate = $10, sort = $11 WHERE id = $1`,
            values(id),
          );
        },
      });
    },
  };
}
