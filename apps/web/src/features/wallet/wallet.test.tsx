import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { paths } from '../../shared/paths';
import { fetchStub, ok, renderPage } from '../../test/render';
import AssetsPage from './AssetsPage';
import DepositPage from './DepositPage';
import TransferPage from './TransferPage';
import WithdrawPage from './WithdrawPage';

const USDT = {
  id: 3,
  symbol: 'USDT',
  name: 'Tether',
  decimals: 6,
  chains: ['TRC20', 'OMNI', 'ERC20'],
  is_fiat: false,
  min_deposit: '10',
  min_withdraw: '105',
  withdraw_fee: '1.5',
  can_deposit: true,
  can_withdraw: true,
};
const BTC = { ...USDT, id: 1, symbol: 'BTC', name: 'Bitcoin', decimals: 8, chains: ['BTC'] };

const coin = (c: typeof USDT, available: string, usdt: string | null) => ({
  currency_id: c.id,
  symbol: c.symbol,
  name: c.name,
  decimals: c.decimals,
  total: available,
  available,
  frozen: '0',
  usdt_value: usdt,
});

const walletList = {
  total_usdt: '250.5',
  valued: true,
  accounts: [
    {
      type: 'spot',
      total_usdt: '250.5',
      valued: true,
      currencies: [coin(USDT, '250.5', '250.5'), coin(BTC, '0.00000001', '0.0009')],
    },
    { type: 'option', total_usdt: '0', valued: true, currencies: [] },
    { type: 'contract', total_usdt: '0', valued: true, currencies: [coin(USDT, '0', '0')] },
    { type: 'trust', total_usdt: '0', valued: true, currencies: [] },
  ],
};

const confirmDialog = async () => {
  const dialogs = await screen.findAllByRole('dialog');
  const dialog = dialogs[dialogs.length - 1];
  if (dialog) fireEvent.click(within(dialog).getByText(en.common.confirm));
};

describe('assets tab', () => {
  it('shows the total in USDT and hides coins worth less than 1 USDT on request', async () => {
    vi.stubGlobal(
      'fetch',
      fetchStub({ 'wallet/list': ok(walletList), 'wallet/currencies': ok([USDT, BTC]) }).fn,
    );
    renderPage(<AssetsPage />, paths.assets);
    await waitFor(() => expect(screen.getByTestId('assets-total').textContent).toContain('250.5'));
    expect(await screen.findByTestId('total-BTC')).toBeTruthy();
    fireEvent.click(screen.getByRole('switch'));
    await waitFor(() => expect(screen.queryByTestId('total-BTC')).toBeNull());
    expect(screen.getByTestId('total-USDT').textContent).toBe('250.5');
  });

  it('offers a retry when the balances cannot load', async () => {
    vi.stubGlobal(
      'fetch',
      fetchStub({ 'wallet/list': { type: 'error', code: 1500, message: 'Server busy' } }).fn,
    );
    renderPage(<AssetsPage />, paths.assets);
    expect(await screen.findByText('Server busy')).toBeTruthy();
    expect(screen.getByRole('button', { name: en.common.retry })).toBeTruthy();
  });
});

describe('transfer', () => {
  it('warns about an amount above the balance and cannot be sent', async () => {
    const stub = fetchStub({ 'wallet/list': ok(walletList), 'wallet/currencies': ok([USDT, BTC]) });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<TransferPage />, paths.transfer, `${paths.transfer}?from=spot&to=contract&currency_id=3`);
    fireEvent.change(await screen.findByLabelText(en.wallet.amount), { target: { value: '250.6' } });
    expect(await screen.findByText(en.wallet.insufficient)).toBeTruthy();
    expect(screen.getByRole('button', { name: en.transfer.submit }).hasAttribute('disabled')).toBe(true);
  });

  it('asks for confirmation, then sends the exact decimal string once', async () => {
    const stub = fetchStub({
      'wallet/list': ok(walletList),
      'wallet/currencies': ok([USDT, BTC]),
      'wallet/change': ok({ id: 1 }, 'Transferred'),
    });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<TransferPage />, paths.transfer, `${paths.transfer}?from=spot&to=contract&currency_id=3`);
    fireEvent.change(await screen.findByLabelText(en.wallet.amount), { target: { value: '0.1000007' } });
    const submit = screen.getByRole('button', { name: en.transfer.submit });
    fireEvent.click(submit);
    fireEvent.click(submit); // a second tap while the dialog is open does nothing
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    await confirmDialog();
    expect(await screen.findByText('Transferred')).toBeTruthy();
    const calls = stub.calls.filter((c) => c.path === 'wallet/change');
    expect(calls).toHaveLength(1);
    // typed past the 6 decimals of USDT: the extra digit never left the field
    expect(Object.fromEntries(calls[0]?.body ?? [])).toEqual({
      currency_id: '3',
      from: 'spot',
      to: 'contract',
      amount: '0.1',
    });
  });
});

describe('deposit', () => {
  it('says "Copy failed, please copy manually" when the browser refuses to copy', async () => {
    vi.stubGlobal(
      'fetch',
      fetchStub({
        'wallet/currencies': ok([USDT]),
        'wallet/get_in_address': ok({
          currency_id: 3,
          symbol: 'USDT',
          chain: 'TRC20',
          address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
          bank: null,
          min_deposit: '10',
        }),
      }).fn,
    );
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: () => Promise.reject(new Error('no')) },
    });
    document.execCommand = () => false;
    renderPage(<DepositPage />, paths.deposit);
    expect((await screen.findByTestId('deposit-address')).textContent).toBe(
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    );
    fireEvent.click(screen.getByRole('button', { name: en.deposit.copyAddress }));
    expect(await screen.findByText(en.common.copyFailed)).toBeTruthy();
  });
});

describe('withdraw', () => {
  const info = {
    currency_id: 3,
    symbol: 'USDT',
    decimals: 6,
    is_fiat: false,
    chains: ['TRC20'],
    can_withdraw: true,
    available: '500',
    min_withdraw: '105',
    withdraw_fee: '1.5',
    daily_limit: 3,
    withdrawals_today: 0,
    withdrawals_left: 3,
    has_fund_password: true,
    verification: 'verified',
    verified: true,
    address_count: 1,
    arrival_key: 'wallet.arrival',
    arrival_text: 'Credited within 12 hours',
  };
  const address = {
    id: 7,
    currency_id: 3,
    symbol: 'USDT',
    chain: 'TRC20',
    address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    remark: null,
    created_at: '2025-01-01T00:00:00.000Z',
  };

  it('shows the fee, what leaves the balance and the arrival time', async () => {
    vi.stubGlobal(
      'fetch',
      fetchStub({
        'wallet/currencies': ok([USDT]),
        'wallet/get_info': ok(info),
        'wallet/get_address': ok([address]),
      }).fn,
    );
    renderPage(<WithdrawPage />, paths.withdraw);
    fireEvent.change(await screen.findByLabelText(en.withdraw.amount), { target: { value: '150.25' } });
    expect(await screen.findByText('151.75 USDT')).toBeTruthy();
    expect(screen.getByText('1.5 USDT')).toBeTruthy();
    expect(screen.getByText('Credited within 12 hours')).toBeTruthy();
  });

  it('asks an unverified user to verify first and sends nothing', async () => {
    const stub = fetchStub({
      'wallet/currencies': ok([USDT]),
      'wallet/get_info': ok({ ...info, verified: false, verification: 'none' }),
      'wallet/get_address': ok([address]),
    });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<WithdrawPage />, paths.withdraw);
    fireEvent.change(await screen.findByLabelText(en.withdraw.amount), { target: { value: '150' } });
    fireEvent.click(screen.getByRole('button', { name: en.withdraw.submit }));
    expect(await screen.findByText(en.withdraw.notVerified)).toBeTruthy();
    expect(stub.calls.some((c) => c.path === 'wallet/out')).toBe(false);
  });

  it('prompts to set a withdraw address when there is none', async () => {
    vi.stubGlobal(
      'fetch',
      fetchStub({
        'wallet/currencies': ok([USDT]),
        'wallet/get_info': ok(info),
        'wallet/get_address': ok([]),
      }).fn,
    );
    renderPage(<WithdrawPage />, paths.withdraw);
    fireEvent.change(await screen.findByLabelText(en.withdraw.amount), { target: { value: '150' } });
    fireEvent.click(screen.getByRole('button', { name: en.withdraw.submit }));
    await waitFor(() =>
      expect(
        screen.getAllByRole('dialog').some((d) => d.textContent?.includes(en.withdraw.addressFirst)),
      ).toBe(true),
    );
  });
});
