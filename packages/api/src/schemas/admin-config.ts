import { type Static, Type } from '@sinclair/typebox';
import { Str } from './common.ts';

// Configuration as data (issue 23): what operators edit in the console, each area owned by its
// module (currencies by the ledger and wallet, markets, contracts, options, the market maker,
// the platform's bank account). Forms carry text; the server answers errors naming the field.

export const AdminConfigPaths = {
  currencies: 'admin/config/currencies', // GET
  saveCurrency: 'admin/config/currencies/save',
  markets: 'admin/config/markets', // GET
  saveMarket: 'admin/config/markets/save',
  contracts: 'admin/config/contracts', // GET
  saveContract: 'admin/config/contracts/save',
  optionSeconds: 'admin/config/option_seconds', // GET
  saveOptionSeconds: 'admin/config/option_seconds/save',
  marketMaker: 'admin/config/market_maker', // GET
  saveMarketMaker: 'admin/config/market_maker/save',
  bankDetails: 'admin/config/bank_details', // GET
  saveBankDetails: 'admin/config/bank_details/save',
} as const;

const Dec = (description: string) => Type.String({ description: `${description} (decimal string)` });
const Time = Type.String({ format: 'date-time' });

export const ConfigCurrency = Type.Object({
  id: Type.Integer(),
  symbol: Type.String(),
  name: Type.String(),
  decimals: Type.Integer(),
  chains: Type.Array(Type.String(), { description: 'Every network the currency exists on' }),
  chains_off: Type.Array(Type.String(), {
    description: 'Chains switched off: users may not deposit or withdraw on them (some of chains)',
  }),
  is_fiat: Type.Boolean(),
  min_deposit: Dec('Smallest deposit'),
  min_withdraw: Dec('Smallest withdrawal'),
  withdraw_fee: Dec('Fee of one withdrawal'),
  can_deposit: Type.Boolean(),
  can_withdraw: Type.Boolean(),
});
export type ConfigCurrency = Static<typeof ConfigCurrency>;

export const ConfigCurrencyBody = Type.Object({
  id: Str('Currency id'),
  min_deposit: Str('Smallest deposit'),
  min_withdraw: Str('Smallest withdrawal'),
  withdraw_fee: Str('Fee of one withdrawal; at most the smallest withdrawal'),
  can_deposit: Str('1 or 0'),
  can_withdraw: Str('1 or 0'),
  chains_off: Str('Chains to switch off, comma-separated (empty: all on; left out: unchanged)', {
    maxLength: 200,
  }),
});
export type ConfigCurrencyBody = Static<typeof ConfigCurrencyBody>;

export const ConfigMarket = Type.Object({
  id: Type.Integer(),
  symbol: Type.String(),
  name: Type.String({ description: 'BTC/USDT' }),
  tick_size: Dec('Price step of new orders'),
  lot_size: Dec('Quantity step of new orders'),
  min_amount: Dec('Smallest order value'),
  maker_fee: Dec('Fee rate of the resting side'),
  taker_fee: Dec('Fee rate of the incoming side'),
  enabled: Type.Boolean(),
  simulated: Type.Boolean({
    description: 'Follows the index feed: its tick is fixed (contracts count in it)',
  }),
});
export type ConfigMarket = Static<typeof ConfigMarket>;

export const ConfigMarketBody = Type.Object({
  id: Str('Market id'),
  tick_size: Str('Price step: applies to new orders; resting orders keep their price'),
  lot_size: Str('Quantity step: applies to new orders'),
  min_amount: Str('Smallest order value, in the quote currency'),
  maker_fee: Str('0 to 0.1'),
  taker_fee: Str('0 to 0.1'),
});
export type ConfigMarketBody = Static<typeof ConfigMarketBody>;

export const ConfigContract = Type.Object({
  id: Type.Integer(),
  symbol: Type.String(),
  name: Type.String(),
  lot_value: Dec('Base currency in one lot'),
  multiples: Type.Array(Type.Integer(), { description: 'Leverage multiples offered' }),
  open_fee_rate: Dec('Opening fee rate'),
  close_fee_rate: Dec('Closing fee rate'),
  maintenance_rate: Dec('Maintenance margin rate: below the initial margin of the largest multiple'),
  enabled: Type.Boolean(),
});
export type ConfigContract = Static<typeof ConfigContract>;

export const ConfigContractBody = Type.Object({
  id: Str('Contract id'),
  lot_value: Str('Base currency in one lot; applies to new positions'),
  multiples: Str('Leverage multiples, comma-separated: 5,10,20'),
  open_fee_rate: Str('0 to 0.1'),
  close_fee_rate: Str('0 to 0.1'),
  maintenance_rate: Str('Below 1 / the largest multiple'),
});
export type ConfigContractBody = Static<typeof ConfigContractBody>;

export const ConfigOptionSeconds = Type.Object({
  market_id: Type.Integer(),
  symbol: Type.String(),
  name: Type.String(),
  seconds: Type.Integer(),
  profit_ratio: Dec('What a win pays as a fraction of the stake'),
  fee_rate: Dec("Fee taken from a win's profit"),
  min_amount: Dec('Smallest stake'),
  max_amount: Dec('Largest stake'),
  enabled: Type.Boolean(),
});
export type ConfigOptionSeconds = Static<typeof ConfigOptionSeconds>;

export const ConfigOptionSecondsBody = Type.Object({
  symbol: Str('Market: btcusdt', { maxLength: 30 }),
  seconds: Str('Delivery time in seconds, 5 to 86400 (a new one is added)'),
  profit_ratio: Str('Above 0, at most 10'),
  fee_rate: Str('0 up to (not including) 1'),
  min_amount: Str('Smallest stake'),
  max_amount: Str('Largest stake, at least the smallest'),
  enabled: Str('1 or 0 (0 withdraws it from sale; orders bought still deliver)'),
});
export type ConfigOptionSecondsBody = Static<typeof ConfigOptionSecondsBody>;

export const ConfigMarketMaker = Type.Object({
  spread_bps: Type.Integer({ description: 'Distance of the best quote from the index, basis points' }),
  size_quote: Dec('Value of each quote in the quote currency'),
  from_environment: Type.Boolean({ description: 'true: never edited, MM_SPREAD_BPS/MM_SIZE_QUOTE apply' }),
  updated_at: Type.Union([Time, Type.Null()]),
});
export type ConfigMarketMaker = Static<typeof ConfigMarketMaker>;

export const ConfigMarketMakerBody = Type.Object({
  spread_bps: Str('1 to 5000'),
  size_quote: Str('Above 0'),
});
export type ConfigMarketMakerBody = Static<typeof ConfigMarketMakerBody>;

export const ConfigBankDetailsBody = Type.Object({
  bank_name: Str('Required'),
  account_name: Str('Required'),
  account_number: Str('Required'),
  swift: Str('Required'),
  bank_address: Str('Optional'),
  remark: Str('Optional: what users write as the transfer reference'),
});
export type ConfigBankDetailsBody = Static<typeof ConfigBankDetailsBody>;
