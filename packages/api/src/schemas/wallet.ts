// Request and response schemas of the wallet area; see the ledger-and-wallet issue.
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import {
  CURRENCY_IDS,
  MONEY_REQUEST_DISPLAY,
  MONEY_REQUEST_STATES,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  WALLET_ACCOUNT_TYPES,
  WITHDRAW_ADDRESS_LENGTH_MAX,
  WITHDRAW_ADDRESS_REMARK_MAX,
  WITHDRAW_REMARK_MAX,
} from '../constants.ts';
import { Literals, Str } from './common.ts';

const Amount = (description: string) => Type.String({ description: `${description} (decimal string)` });
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const AccountTypeSchema = Literals(WALLET_ACCOUNT_TYPES);
/** "spot, option, contract or trust" for the descriptions. */
const ACCOUNTS = `${WALLET_ACCOUNT_TYPES.slice(0, -1).join(', ')} or ${WALLET_ACCOUNT_TYPES.at(-1)}`;
const StateSchema = Literals(MONEY_REQUEST_STATES);
const DisplaySchema = Literals(MONEY_REQUEST_STATES.map((s) => MONEY_REQUEST_DISPLAY[s]));
const DateTime = Type.String({ format: 'date-time' });

/** A page of records: `list` newest first. */
export const WalletPageOf = <T extends TSchema>(item: T) =>
  Type.Object({
    list: Type.Array(item),
    page: Type.Integer({ description: 'Page number, from 1' }),
    limit: Type.Integer({ description: 'Records per page' }),
    total: Type.Integer({ description: 'Records in all pages' }),
  });

const pageFields = {
  page: Str('Page number, from 1 (default 1)', { maxLength: 9 }),
  limit: Str(`Records per page, 1 to ${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT})`, { maxLength: 9 }),
};

// ---- currencies --------------------------------------------------------------------------

export const CurrencyInfo = Type.Object({
  id: Type.Integer({
    description: `currency_id: USDT ${CURRENCY_IDS.USDT}, ETH ${CURRENCY_IDS.ETH}, BTC ${CURRENCY_IDS.BTC}, Bank ${CURRENCY_IDS.BANK}`,
  }),
  symbol: Type.String(),
  name: Type.String(),
  decimals: Type.Integer({ description: 'Digits kept and shown; amounts are truncated to these' }),
  chains: Type.Array(Type.String(), { description: 'Chain types (empty for Bank)' }),
  is_fiat: Type.Boolean({ description: 'true for Bank: bank transfers instead of chains' }),
  min_deposit: Amount('Minimum deposit'),
  min_withdraw: Amount('Minimum withdrawal'),
  withdraw_fee: Amount('Fee per withdrawal, in the currency'),
  can_deposit: Type.Boolean(),
  can_withdraw: Type.Boolean(),
});
export type CurrencyInfo = Static<typeof CurrencyInfo>;
export const CurrencyList = Type.Array(CurrencyInfo);

// ---- balances ----------------------------------------------------------------------------

export const CurrencyBalance = Type.Object({
  currency_id: Type.Integer(),
  symbol: Type.String(),
  name: Type.String(),
  decimals: Type.Integer(),
  total: Amount('available + frozen, truncated to the decimals'),
  available: Amount('Available'),
  frozen: Amount('Frozen'),
  usdt_value: Nullable(Amount('total in USDT; null when the currency has no price yet')),
});
export type CurrencyBalance = Static<typeof CurrencyBalance>;

export const WalletAccount = Type.Object({
  type: AccountTypeSchema,
  total_usdt: Amount('Sum of the priced currencies in USDT'),
  valued: Type.Boolean({ description: 'false when a currency with a balance has no price (left out)' }),
  currencies: Type.Array(CurrencyBalance),
});
export type WalletAccount = Static<typeof WalletAccount>;

export const WalletList = Type.Object({
  total_usdt: Amount('All four accounts in USDT'),
  valued: Type.Boolean({ description: 'false when some balance could not be priced' }),
  accounts: Type.Array(WalletAccount),
});
export type WalletList = Static<typeof WalletList>;

/** One change of one account: an entry of the ledger with its journal. */
export const LedgerFlow = Type.Object({
  id: Type.String({ description: 'Ledger entry id' }),
  time: DateTime,
  type: AccountTypeSchema,
  currency_id: Type.Integer(),
  symbol: Type.String(),
  reason: Type.String({
    description:
      'Code: deposit, transfer, withdraw_freeze, withdraw, withdraw_reject, … (more from other areas)',
  }),
  reason_text: Type.String({ description: 'The reason in the request language' }),
  delta_available: Amount('Change of available, signed'),
  delta_frozen: Amount('Change of frozen, signed'),
  available_after: Amount('Available after the change'),
  frozen_after: Amount('Frozen after the change'),
  ref_type: Nullable(Type.String({ description: 'deposit, withdrawal, transfer, …' })),
  ref_id: Nullable(Type.String()),
});
export type LedgerFlow = Static<typeof LedgerFlow>;

export const WalletDetailBody = Type.Object({
  currency_id: Str('Currency id'),
  type: Str(`Account: ${ACCOUNTS}`),
});
export type WalletDetailBody = Static<typeof WalletDetailBody>;

export const WalletDetail = Type.Object({
  type: AccountTypeSchema,
  currency_id: Type.Integer(),
  symbol: Type.String(),
  name: Type.String(),
  decimals: Type.Integer(),
  total: Amount('available + frozen'),
  available: Amount('Available'),
  frozen: Amount('Frozen'),
  usdt_value: Nullable(Amount('total in USDT; null without a price')),
  flows: Type.Array(LedgerFlow, { description: 'The latest 20 changes, newest first' }),
});
export type WalletDetail = Static<typeof WalletDetail>;

export const LegalLogBody = Type.Object({
  type: Str(`Account (optional): ${ACCOUNTS}`),
  currency_id: Str('Currency id (optional)'),
  ...pageFields,
});
export type LegalLogBody = Static<typeof LegalLogBody>;
export const LedgerFlowPage = WalletPageOf(LedgerFlow);
export type LedgerFlowPage = Static<typeof LedgerFlowPage>;

// ---- transfers ---------------------------------------------------------------------------

export const TransferBody = Type.Object({
  currency_id: Str('Currency id'),
  from: Str(`From account: ${ACCOUNTS}`),
  to: Str(`To account: ${ACCOUNTS}`),
  amount: Str('Amount, at most the currency decimals', { maxLength: 64 }),
});
export type TransferBody = Static<typeof TransferBody>;

export const TransferRecord = Type.Object({
  id: Type.Integer(),
  currency_id: Type.Integer(),
  symbol: Type.String(),
  from: AccountTypeSchema,
  to: AccountTypeSchema,
  amount: Amount('Amount moved'),
  created_at: DateTime,
});
export type TransferRecord = Static<typeof TransferRecord>;

export const TransferHistoryQuery = Type.Object({
  currency_id: Str('Currency id (optional)'),
  ...pageFields,
});
export type TransferHistoryQuery = Static<typeof TransferHistoryQuery>;
export const TransferPage = WalletPageOf(TransferRecord);
export type TransferPage = Static<typeof TransferPage>;

export const WalletPageQuery = Type.Object(pageFields);
export type WalletPageQuery = Static<typeof WalletPageQuery>;

export const WithdrawalLogQuery = Type.Object({
  ...pageFields,
  id: Str('Only this withdrawal of the user (the detail page); an empty list when it is not theirs', {
    maxLength: 20,
  }),
});
export type WithdrawalLogQuery = Static<typeof WithdrawalLogQuery>;

// ---- deposits ----------------------------------------------------------------------------

export const DepositAddressBody = Type.Object({
  currency_id: Str('Currency id'),
  chain: Str(
    'Chain type (USDT: TRC20, OMNI, ERC20; BTC: BTC); may be left out when the currency has one chain',
  ),
});
export type DepositAddressBody = Static<typeof DepositAddressBody>;

export const BankDetails = Type.Object({
  bank_name: Type.String(),
  account_name: Type.String(),
  account_number: Type.String(),
  swift: Type.String(),
  bank_address: Type.String(),
  remark: Type.String({ description: 'What to write as the transfer reference, or other notes' }),
  configured: Type.Boolean({
    description: 'false: the operator has not set BANK_DETAILS; the values are placeholders',
  }),
});
export type BankDetails = Static<typeof BankDetails>;

export const DepositAddress = Type.Object({
  currency_id: Type.Integer(),
  symbol: Type.String(),
  chain: Nullable(Type.String()),
  address: Nullable(Type.String({ description: 'Crypto: the deposit address; null for Bank' })),
  bank: Nullable(BankDetails),
  min_deposit: Amount('Minimum deposit'),
});
export type DepositAddress = Static<typeof DepositAddress>;

export const DepositRequestBody = Type.Object({
  currency_id: Str(`Currency id (${CURRENCY_IDS.BANK} for a bank transfer)`),
  chain: Str('Chain type (crypto only)'),
  amount: Str('Amount sent (bank: the transfer amount)', { maxLength: 64 }),
  image: Str('Proof picture: the name returned by POST /api/upload'),
});
export type DepositRequestBody = Static<typeof DepositRequestBody>;

export const DepositRecord = Type.Object({
  id: Type.Integer(),
  currency_id: Type.Integer(),
  symbol: Type.String(),
  chain: Nullable(Type.String()),
  address: Nullable(Type.String()),
  amount: Amount('Amount'),
  image: Type.String({ description: 'Upload name of the proof' }),
  image_url: Type.String({ description: 'GET it with the Authorization header' }),
  status: StateSchema,
  status_code: DisplaySchema,
  status_text: Type.String({ description: 'Under review / Passed / Rejected in the request language' }),
  reject_reason: Nullable(Type.String()),
  created_at: DateTime,
  reviewed_at: Nullable(DateTime),
});
export type DepositRecord = Static<typeof DepositRecord>;
export const DepositPage = WalletPageOf(DepositRecord);
export type DepositPage = Static<typeof DepositPage>;

// ---- withdrawal addresses ----------------------------------------------------------------

export const WithdrawAddressesBody = Type.Object({ currency_id: Str('Currency id (optional)') });
export type WithdrawAddressesBody = Static<typeof WithdrawAddressesBody>;

export const WithdrawAddress = Type.Object({
  id: Type.Integer(),
  currency_id: Type.Integer(),
  symbol: Type.String(),
  chain: Type.String(),
  address: Type.String(),
  remark: Nullable(Type.String()),
  created_at: DateTime,
});
export type WithdrawAddress = Static<typeof WithdrawAddress>;
export const WithdrawAddressList = Type.Array(WithdrawAddress);

export const AddWithdrawAddressBody = Type.Object({
  currency_id: Str('Currency id'),
  chain: Str('Chain type: one of the currency chains'),
  address: Str('The address, valid for the chain', { maxLength: WITHDRAW_ADDRESS_LENGTH_MAX }),
  remark: Str(`A name for it (optional, up to ${WITHDRAW_ADDRESS_REMARK_MAX} characters)`),
  fund_password: Str('Fund password: 6 digits'),
  code: Str('Verification code sent with type=address'),
  code_type: Str('mobile or email: where the code was sent (default: e-mail when bound)'),
});
export type AddWithdrawAddressBody = Static<typeof AddWithdrawAddressBody>;

export const DeleteWithdrawAddressBody = Type.Object({ id: Str('Address id') });
export type DeleteWithdrawAddressBody = Static<typeof DeleteWithdrawAddressBody>;

// ---- withdrawals -------------------------------------------------------------------------

export const WithdrawInfoBody = Type.Object({ currency_id: Str('Currency id') });
export type WithdrawInfoBody = Static<typeof WithdrawInfoBody>;

export const WithdrawInfo = Type.Object({
  currency_id: Type.Integer(),
  symbol: Type.String(),
  decimals: Type.Integer(),
  is_fiat: Type.Boolean({ description: 'true for Bank: withdraw to a bank card (bank_card_id)' }),
  chains: Type.Array(Type.String()),
  can_withdraw: Type.Boolean(),
  available: Amount('Available in the spot account'),
  min_withdraw: Amount('Minimum withdrawal'),
  withdraw_fee: Amount('Fee, added to the amount and frozen with it'),
  daily_limit: Type.Integer({ description: 'Withdrawal requests per UTC day' }),
  withdrawals_today: Type.Integer(),
  withdrawals_left: Type.Integer(),
  has_fund_password: Type.Boolean(),
  verification: Type.String({ description: 'none, pending, verified or rejected' }),
  verified: Type.Boolean(),
  address_count: Type.Integer({ description: 'Saved withdraw addresses for this currency' }),
  arrival_key: Type.String({ description: 'Message key of the arrival text' }),
  arrival_text: Type.String({ description: '"Credited within 12 hours" in the request language' }),
});
export type WithdrawInfo = Static<typeof WithdrawInfo>;

export const WithdrawBody = Type.Object({
  currency_id: Str('Currency id'),
  address_id: Str('Crypto: id of a saved withdraw address (wallet/get_address)'),
  bank_card_id: Str(`Bank (${CURRENCY_IDS.BANK}): id of a bound bank card (user/cash_info)`),
  amount: Str('Amount to receive; the fee is charged on top', { maxLength: 64 }),
  fund_password: Str('Fund password: 6 digits'),
  remark: Str(`Remark (optional, up to ${WITHDRAW_REMARK_MAX} characters)`),
});
export type WithdrawBody = Static<typeof WithdrawBody>;

export const WithdrawalRecord = Type.Object({
  id: Type.Integer(),
  currency_id: Type.Integer(),
  symbol: Type.String(),
  chain: Nullable(Type.String()),
  address: Nullable(Type.String({ description: 'Crypto address, or the bank and card ending for Bank' })),
  bank_card_id: Nullable(Type.Integer()),
  amount: Amount('Amount to receive'),
  fee: Amount('Fee'),
  total: Amount('amount + fee: what leaves the balance'),
  remark: Nullable(Type.String()),
  status: StateSchema,
  status_code: DisplaySchema,
  status_text: Type.String(),
  tx_ref: Nullable(Type.String({ description: 'Transaction hash or bank reference, once paid' })),
  reject_reason: Nullable(Type.String()),
  created_at: DateTime,
  reviewed_at: Nullable(DateTime),
});
export type WithdrawalRecord = Static<typeof WithdrawalRecord>;
export const WithdrawalPage = WalletPageOf(WithdrawalRecord);
export type WithdrawalPage = Static<typeof WithdrawalPage>;
