import {
  ACCOUNT_TYPES,
  CANCEL_REASONS,
  CANDLE_INTERVALS,
  CANDLE_SOURCES,
  CURRENCY_IDS,
  HELP_CATEGORIES,
  LANGS,
  MESSAGE_KINDS,
  MONEY_REQUEST_STATES,
  NEWS_KINDS,
  NEWS_STATES,
  OPERATOR_ROLES,
  OPERATOR_SESSION_STAGES,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
  REFERRAL_REBATE_KINDS,
  SUBMISSION_STATES,
  SUPPORT_CONVERSATION_STATES,
  SUPPORT_SENDERS,
  USER_STATUSES,
  VERIFICATION_LEVELS,
  VERIFICATION_STATES,
  WALLET_ACCOUNT_TYPES,
} from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../test/harness.ts';

// The database's CHECK lists and seeded currencies against the contract's constants: a state the
// API names but the table refuses (or the reverse) would fail only when a user first reaches it.
let h: Harness;
let checks: { table: string; def: string }[];

beforeAll(async () => {
  h = await startHarness();
  checks = await h.app.ctx.db.query<{ table: string; def: string }>(
    `SELECT conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE contype = 'c'`,
  );
});
afterAll(() => h.close());

/** The values a CHECK `column IN (...)` of the table allows (the form PostgreSQL prints it in). */
function allowed(table: string, column: string): string[] {
  const re = new RegExp(`^CHECK \\(\\("?${column}"? = ANY \\(ARRAY\\[(.*)\\]\\)\\)\\)$`);
  const found = checks.filter((c) => c.table === table).flatMap((c) => re.exec(c.def)?.[1] ?? []);
  expect(found, `${table}.${column} has one list`).toHaveLength(1);
  return [...found[0]!.matchAll(/'([^']*)'::text/g)].map((m) => m[1]!);
}

describe('the tables store exactly the states the API names', () => {
  it.each([
    ['users', 'account_type', ACCOUNT_TYPES],
    ['users', 'status', USER_STATUSES],
    ['users', 'verification', VERIFICATION_STATES],
    ['users', 'advanced_verification', VERIFICATION_STATES],
    ['verification_codes', 'channel', ACCOUNT_TYPES],
    ['verifications', 'level', VERIFICATION_LEVELS],
    ['verifications', 'status', SUBMISSION_STATES],
    ['deposits', 'status', MONEY_REQUEST_STATES],
    ['withdrawals', 'status', MONEY_REQUEST_STATES],
    ['balance_adjustments', 'status', MONEY_REQUEST_STATES],
    ['balance_adjustments', 'account_type', WALLET_ACCOUNT_TYPES],
    ['transfers', 'from_type', WALLET_ACCOUNT_TYPES],
    ['transfers', 'to_type', WALLET_ACCOUNT_TYPES],
    ['ledger_accounts', 'type', [...WALLET_ACCOUNT_TYPES, 'house']],
    ['operators', 'role', OPERATOR_ROLES],
    ['operator_sessions', 'stage', OPERATOR_SESSION_STAGES],
    ['spot_orders', 'side', ORDER_SIDES],
    ['spot_orders', 'type', ORDER_TYPES],
    ['spot_orders', 'status', ORDER_STATUSES],
    ['spot_orders', 'cancel_reason', CANCEL_REASONS],
    ['trades', 'taker_side', ORDER_SIDES],
    ['candles', 'interval', CANDLE_INTERVALS],
    ['candles', 'source', CANDLE_SOURCES],
    ['news', 'kind', NEWS_KINDS],
    ['news', 'status', NEWS_STATES],
    ['messages', 'kind', MESSAGE_KINDS],
    ['referral_rebates', 'kind', REFERRAL_REBATE_KINDS],
    ['help_articles', 'category', HELP_CATEGORIES],
    ['help_article_texts', 'lang', LANGS],
    ['support_conversations', 'status', SUPPORT_CONVERSATION_STATES],
    ['support_messages', 'sender', SUPPORT_SENDERS],
  ] as const)('%s.%s', (table, column, values) => {
    expect(allowed(table, column).sort()).toEqual([...values].sort());
  });

  it('seeds the base coins with the ids of spec §3', async () => {
    const rows = await h.app.ctx.db.query<{ id: number; symbol: string }>(
      'SELECT id, symbol FROM currencies WHERE id = ANY($1::int[]) ORDER BY id',
      [Object.values(CURRENCY_IDS)],
    );
    expect(rows).toEqual([
      { id: CURRENCY_IDS.BTC, symbol: 'BTC' },
      { id: CURRENCY_IDS.ETH, symbol: 'ETH' },
      { id: CURRENCY_IDS.USDT, symbol: 'USDT' },
      { id: CURRENCY_IDS.BANK, symbol: 'Bank' },
    ]);
  });
});
