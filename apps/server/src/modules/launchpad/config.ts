import { type ConfigLaunchpadProject, type ConfigLaunchpadProjectBody, LANGS, type Lang } from '@verdant/api';
import { compareDecimal, dec } from '@verdant/engine';
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
import type { ProjectRow } from './store.ts';

/** Text per language from name_th … name_hk: English required, the rest fall back to it. */
function perLang(f: ConfigFields, prefix: string, max: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of LANGS) {
    const v = f.text(`${prefix}_${l}`, max, l === 'en');
    if (v) out[l] = v;
  }
  return out;
}

/** A project as operators edit it: the stored row, its sort order and what users hold of it. */
interface Row extends ProjectRow {
  sort: number;
  orders: number;
  passed: number;
}

const SELECT = `SELECT p.id, p.name, p.intro, p.coin_currency_id, p.pay_currency_id, p.issue_price::text,
  p.total_supply::text, p.subscribed::text, p.user_min::text, p.user_max::text, p.starts_at, p.ends_at, p.launch_at,
  p.lockup_days, p.expected_return::text, p.recommend, p.tick_size::text, p.lot_size::text, p.sort, p.market_id,
  (SELECT count(*)::int FROM launchpad_orders o WHERE o.project_id = p.id) AS orders,
  (SELECT count(*)::int FROM launchpad_orders o WHERE o.project_id = p.id AND o.status = 'passed') AS passed
  FROM launchpad_projects p`;

const COLUMNS = `name, intro, coin_currency_id, pay_currency_id, issue_price, total_supply, user_min, user_max,
  starts_at, ends_at, launch_at, lockup_days, expected_return, recommend, tick_size, lot_size, sort`;

/**
 * Operators' side of the new-coin projects (issue 23): list, create, edit; audited before and
 * after. What users hold never changes: once a project has subscriptions its coin, payment
 * currency, issue price, opening time and lock-up are fixed and the supply never drops below
 * what is subscribed; its launch time is fixed once a subscription is passed (their unlock times
 * are set) or the coin is listed, and the market's tick and lot once listed (docs/decisions.md,
 * "Deposit products and projects"). `wake` tells the launch job a launch time moved.
 */
export function launchpadConfig(ctx: AppContext, wake: () => void) {
  const { db } = ctx;

  async function toApi(rows: Row[], q: Queryable = db): Promise<ConfigLaunchpadProject[]> {
    const cs = await currenciesById(q);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      intro: r.intro,
      coin: cs.get(r.coin_currency_id)?.symbol ?? '',
      pay_currency: cs.get(r.pay_currency_id)?.symbol ?? '',
      issue_price: canon(r.issue_price),
      total_supply: canon(r.total_supply),
      subscribed: canon(r.subscribed),
      user_min: canon(r.user_min),
      user_max: canon(r.user_max),
      starts_at: r.starts_at.toISOString(),
      ends_at: r.ends_at.toISOString(),
      launch_at: r.launch_at.toISOString(),
      lockup_days: r.lockup_days,
      expected_return: canon(r.expected_return),
      recommend: r.recommend,
      tick_size: canon(r.tick_size),
      lot_size: canon(r.lot_size),
      sort: r.sort,
      orders: r.orders,
      passed: r.passed,
      listed: r.market_id !== null,
    }));
  }
  const read = async (q: Queryable, id: number) => {
    const [r] = await q.query<Row>(`${SELECT} WHERE p.id = $1`, [id]);
    return r ? (await toApi([r], q))[0]! : null;
  };

  return {
    async list(): Promise<ConfigLaunchpadProject[]> {
      return toApi(await db.query<Row>(`${SELECT} ORDER BY p.sort, p.id`));
    },

    /** Creates a project (no id) or edits one; every field checked first, named in the operator's language. */
    async save(
      op: OperatorSession,
      ip: string,
      body: ConfigLaunchpadProjectBody,
      lang: Lang,
    ): Promise<ConfigLaunchpadProject> {
      const f = new ConfigFields(body as ConfigForm, lang);
      const id = (body.id ?? '').trim() ? f.integer('id', 1, 2_000_000_000) : null;
      const name = perLang(f, 'name', 120);
      const intro = perLang(f, 'intro', 4000);
      const cs = [...(await currenciesById(db)).values()];
      const currency = (field: 'coin' | 'pay_currency') => {
        const symbol = f.text(field, 20).toUpperCase();
        const c = cs.find((x) => x.symbol === symbol);
        if (!c) throw f.fail(field, 'unknown');
        return c;
      };
      const coin = currency('coin');
      const pay = currency('pay_currency');
      if (coin.id === pay.id) throw f.fail('pay_currency', 'sameAsCoin');
      const amount = (field: string, places: number) =>
        f.decimal(field, { min: '0', max: '1000000000000', above: true, places });
      const issuePrice = amount('issue_price', 18);
      const totalSupply = amount('total_supply', coin.decimals);
      const userMin = amount('user_min', pay.decimals);
      const userMax = amount('user_max', pay.decimals);
      if (compareDecimal(userMax, userMin) < 0) throw f.fail('user_max', 'notBelow', { min: userMin });
      const time = (field: string) => {
        const v = f.text(field, 40);
        const t = /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : Number.NaN;
        if (Number.isNaN(t)) throw f.fail(field, 'time');
        return new Date(t);
      };
      const startsAt = time('starts_at');
      const endsAt = time('ends_at');
      const launchAt = time('launch_at');
      if (endsAt <= startsAt) throw f.fail('ends_at', 'timeAfter', { after: startsAt.toISOString() });
      if (launchAt < endsAt) throw f.fail('launch_at', 'timeNotBefore', { after: endsAt.toISOString() });
      const lockupDays = f.integer('lockup_days', 0, 3650);
      const expectedReturn = f.decimal('expected_return', { min: '0', max: '100', places: 8 });
      const recommend = f.flag('recommend', false);
      const tick = f.decimal('tick_size', { min: '0', max: '1000000', above: true, places: 12 });
      const lot = f.decimal('lot_size', { min: '0', max: '1000000', above: true, places: 12 });
      const sort = (body.sort ?? '').trim() ? f.integer('sort', 0, 9999) : 0;
      const values = [
        JSON.stringify(name),
        JSON.stringify(intro),
        coin.id,
        pay.id,
        issuePrice,
        totalSupply,
        userMin,
        userMax,
        startsAt.toISOString(),
        endsAt.toISOString(),
        launchAt.toISOString(),
        lockupDays,
        expectedReturn,
        recommend,
        tick,
        lot,
        sort,
      ];
      const coinTaken = async (q: Queryable, self: number) => {
        const [r] = await q.query(
          'SELECT 1 FROM launchpad_projects WHERE coin_currency_id = $1 AND id <> $2',
          [coin.id, self],
        );
        if (r) throw f.fail('coin', 'coinTaken');
      };

      let after: ConfigLaunchpadProject;
      if (id === null)
        // a new project: the next id, taken with the table locked against a second creation
        after = await db.tx(async (q) => {
          await q.query('LOCK TABLE launchpad_projects IN SHARE ROW EXCLUSIVE MODE');
          const [n] = await q.query<{ id: number }>(
            'SELECT coalesce(max(id), 0) + 1 AS id FROM launchpad_projects',
          );
          await coinTaken(q, n!.id);
          await q.query(
            `INSERT INTO launchpad_projects (id, ${COLUMNS})
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
            [n!.id, ...values],
          );
          const row = (await read(q, n!.id))!;
          await writeAudit(q, {
            operatorId: op.id,
            action: 'launchpad.project.create',
            targetType: 'launchpad_project',
            targetId: row.id,
            before: null,
            after: row,
            ip,
          });
          return row;
        });
      else
        after = await auditedChange(db, {
          op,
          ip,
          action: 'launchpad.project.edit',
          targetType: 'launchpad_project',
          targetId: id,
          // the row locked: a subscription checking the supply waits for the edit, and the other way round
          read: async (q) => {
            await q.query('SELECT 1 FROM launchpad_projects WHERE id = $1 FOR UPDATE', [id]);
            return read(q, id);
          },
          write: async (q, b) => {
            if (!b) throw new AppError('NOT_FOUND', 'errors.notFound', {}, 'id');
            const fixed = (field: string, same: boolean) => {
              if (!same) throw f.fail(field, 'fixedOnceOrders');
            };
            if (b.orders > 0) {
              fixed('coin', b.coin === coin.symbol);
              fixed('pay_currency', b.pay_currency === pay.symbol);
              fixed('issue_price', compareDecimal(b.issue_price, issuePrice) === 0);
              fixed('starts_at', Date.parse(b.starts_at) === startsAt.getTime());
              fixed('lockup_days', b.lockup_days === lockupDays);
              const capacity = dec(totalSupply).times(issuePrice).toFixed();
              if (compareDecimal(capacity, b.subscribed) < 0)
                throw f.fail('total_supply', 'notBelowSold', { sold: b.subscribed });
            }
            if ((b.passed > 0 || b.listed) && Date.parse(b.launch_at) !== launchAt.getTime())
              throw f.fail('launch_at', 'fixedOnceListed');
            if (
              b.listed &&
              (compareDecimal(b.tick_size, tick) !== 0 || compareDecimal(b.lot_size, lot) !== 0)
            )
              throw f.fail(
                compareDecimal(b.tick_size, tick) !== 0 ? 'tick_size' : 'lot_size',
                'fixedOnceListed',
              );
            await coinTaken(q, id);
            await q.query(
              `UPDATE launchpad_projects SET (${COLUMNS}) =
                 ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) WHERE id = $1`,
              [id, ...values],
            );
          },
        });
      wake();
      return after;
    },
  };
}
