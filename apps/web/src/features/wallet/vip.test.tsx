import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { paths } from '../../shared/paths';
import { fetchStub, ok, renderPage } from '../../test/render';
import VipDepositPage from './VipDepositPage';

const BANK = {
  id: 9999,
  symbol: 'Bank',
  name: 'Bank transfer',
  decimals: 2,
  chains: [],
  is_fiat: true,
  min_deposit: '105',
  min_withdraw: '105',
  withdraw_fee: '0',
  can_deposit: true,
  can_withdraw: true,
};

const bankAnswer = ok({
  currency_id: 9999,
  symbol: 'Bank',
  chain: null,
  address: null,
  bank: {
    bank_name: 'Siam Test Bank',
    account_name: 'Verdant Co., Ltd.',
    account_number: '123-4-56789-0',
    swift: 'SICOTHBK',
    bank_address: 'Bangkok',
    remark: '',
    configured: true,
  },
  min_deposit: '105',
});

describe('VIP deposit channel', () => {
  it("says what the channel is, shows the operator's bank account and leads to online service", async () => {
    const stub = fetchStub({
      'wallet/currencies': ok([BANK]),
      'wallet/get_in_address': bankAnswer,
      'set/get_customer_url': ok({ url: '#/pages/help-center/chat' }),
    });
    vi.stubGlobal('fetch', stub.fn);
    const { router } = renderPage(<VipDepositPage />, paths.depositVip);

    expect(await screen.findByText(en.vip.lead)).toBeTruthy();
    expect(screen.getByText('Siam Test Bank')).toBeTruthy();
    expect(screen.getByText('123-4-56789-0')).toBeTruthy();
    expect(stub.calls.find((c) => c.path === 'wallet/get_in_address')?.body.get('currency_id')).toBe('9999');

    fireEvent.click(screen.getByRole('button', { name: en.vip.contact }));
    await waitFor(() => expect(router.state.location.pathname).toBe(paths.chat));
  });

  it('sends the transfer proof to the bank deposit form', async () => {
    vi.stubGlobal(
      'fetch',
      fetchStub({ 'wallet/currencies': ok([BANK]), 'wallet/get_in_address': bankAnswer }).fn,
    );
    const { router } = renderPage(<VipDepositPage />, paths.depositVip);
    fireEvent.click(await screen.findByRole('button', { name: en.deposit.submitProof }));
    await waitFor(() => expect(router.state.location.pathname).toBe(paths.depositCharge));
    expect(router.state.location.search).toBe('?currency_id=9999');
  });

  it('says plainly when bank deposits are not offered, and still offers online service', async () => {
    vi.stubGlobal('fetch', fetchStub({ 'wallet/currencies': ok([{ ...BANK, can_deposit: false }]) }).fn);
    renderPage(<VipDepositPage />, paths.depositVip);
    expect(await screen.findByText(en.vip.noBank)).toBeTruthy();
    expect(screen.getByRole('button', { name: en.vip.contact })).toBeTruthy();
  });
});
