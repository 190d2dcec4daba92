import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { TrustOrder, TrustProduct } from '@verdant/api';
import { describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { paths } from '../../shared/paths';
import { fetchStub, ok, renderPage } from '../../test/render';
import BuyPage from './BuyPage';
import OrdersPage from './OrdersPage';
import RulePage from './RulePage';

const PRODUCT: TrustProduct = {
  id: 1,
  name: 'USDT 15-day hosting',
  currency: 'USDT',
  currency_id: 3,
  decimals: 6,
  term_days: 15,
  min_amount: '100',
  daily_rate: '0.004',
  total_rate: '0.06',
  state: 'ongoing',
  capacity: '1000000',
  remaining: '999000',
  penalty_rule: 'remaining_days',
  penalty_rate: '0.004',
};

const ORDER: TrustOrder = {
  id: '7',
  product_id: 1,
  name: 'USDT 15-day hosting',
  currency: 'USDT',
  decimals: 6,
  status: 'hosting',
  amount: '1000',
  term_days: 15,
  daily_rate: '0.004',
  daily_interest: '4',
  days_paid: 12,
  remaining_days: 3,
  income: '48',
  expected_income: '60',
  penalty_rule: 'remaining_days',
  penalty_rate: '0.004',
  penalty: '12',
  started_at: '2026-01-01T00:00:00.000Z',
  payout_time: '2026-01-14T00:00:00.000Z',
  matures_at: '2026-01-16T00:00:00.000Z',
  ended_at: null,
};

describe('finance buy page', () => {
  it('checks amount, minimum escrow, agreement and balance in that order, then confirms before buying', async () => {
    const stub = fetchStub({
      'lh/deposit/product_info': ok({ product: PRODUCT, available: '500' }),
      'lh/deposit': ok(ORDER, 'Purchase successful'),
    });
    vi.stubGlobal('fetch', stub.fn);
    const { router } = renderPage(<BuyPage />, paths.financeBuy, `${paths.financeBuy}?id=1`);
    const buy = await screen.findByRole('button', { name: en.trust.buy });
    const amount = document.querySelector('#trust-amount') as HTMLInputElement;
    const alertSays = async (text: string) =>
      waitFor(() => expect(screen.getByRole('alert').textContent).toBe(text));

    fireEvent.click(buy);
    await alertSays(en.trust.amountRequired);
    fireEvent.change(amount, { target: { value: '99' } });
    fireEvent.click(buy);
    await alertSays('The minimum escrow is 100 USDT');
    fireEvent.change(amount, { target: { value: '600' } });
    fireEvent.click(buy);
    await alertSays(en.trust.agreementRequired);
    fireEvent.click(screen.getByText(en.trust.agreement));
    fireEvent.click(buy);
    await alertSays(en.trust.insufficient);
    expect(stub.calls.some((c) => c.path === 'lh/deposit')).toBe(false);

    fireEvent.change(amount, { target: { value: '400' } });
    fireEvent.click(buy);
    expect(await screen.findByText('Lock 400 USDT in USDT 15-day hosting for 15 days?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.common.confirm }));
    await waitFor(() => expect(router.state.location.pathname).toBe(paths.financeOrders));
    const sent = stub.calls.find((c) => c.path === 'lh/deposit')!.body;
    expect(Object.fromEntries(sent)).toEqual({ product_id: '1', amount: '400', agree: '1' });
  });
});

describe('finance orders page', () => {
  it('shows the penalty before redeeming early, and sends the redemption only once confirmed', async () => {
    const stub = fetchStub({
      'lh/deposit/order': ok({ list: [ORDER], page: 1, limit: 100, total: 1 }),
      'lh/deposit/order/cancel': ok({ ...ORDER, status: 'redeemed' }, 'Redeemed'),
    });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<OrdersPage />, paths.financeOrders);
    expect(await screen.findByText('48 USDT')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.trust.redeem }));
    expect(await screen.findByText(/penalty of 12 USDT: 988 USDT of the principal comes back/)).toBeTruthy();
    expect(stub.calls.some((c) => c.path === 'lh/deposit/order/cancel')).toBe(false);
    const buttons = screen.getAllByRole('button', { name: en.trust.redeem });
    fireEvent.click(buttons[buttons.length - 1]!);
    await waitFor(() =>
      expect(stub.calls.find((c) => c.path === 'lh/deposit/order/cancel')?.body.get('id')).toBe('7'),
    );
  });
});

describe('finance orders page amounts', () => {
  it("shows every place of the currency's decimals, beyond eight, truncated at its own", async () => {
    const eth = {
      ...ORDER,
      currency: 'ETH',
      decimals: 18,
      amount: '1.123456789012345678',
      income: '0.000000000123456789',
      penalty: '0',
    };
    vi.stubGlobal(
      'fetch',
      fetchStub({ 'lh/deposit/order': ok({ list: [eth], page: 1, limit: 100, total: 1 }) }).fn,
    );
    renderPage(<OrdersPage />, paths.financeOrders);
    expect(await screen.findByText('1.123456789012345678 ETH')).toBeTruthy();
    expect(screen.getByText('0.000000000123456789 ETH')).toBeTruthy();
  });
});

describe('finance rule page', () => {
  it("states the product's own penalty rule", async () => {
    vi.stubGlobal(
      'fetch',
      fetchStub({ 'lh/deposit/product_info': ok({ product: PRODUCT, available: null }) }).fn,
    );
    renderPage(<RulePage />, paths.financeRules, `${paths.financeRules}?id=1`);
    expect(await screen.findByText(/the penalty is 0.4% × remaining days × principal/)).toBeTruthy();
  });
});
