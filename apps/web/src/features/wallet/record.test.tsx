import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import th from '../../locales/th.json';
import { changeLanguage } from '../../shared/i18n';
import { paths } from '../../shared/paths';
import { fetchStub, ok, renderPage } from '../../test/render';
import RecordPage from './RecordPage';

const USDT = {
  id: 3,
  symbol: 'USDT',
  name: 'Tether',
  decimals: 6,
  chains: ['TRC20'],
  is_fiat: false,
  min_deposit: '10',
  min_withdraw: '105',
  withdraw_fee: '1.5',
  can_deposit: true,
  can_withdraw: true,
};

// What wallet/legal_log answers today: the server leaves spot reasons as bare codes.
const flow = (id: number, reason: string, reason_text: string) => ({
  id: String(id),
  time: '2026-01-02T03:04:05.000Z',
  type: 'spot',
  currency_id: 3,
  symbol: 'USDT',
  reason,
  reason_text,
  delta_available: '-10',
  delta_frozen: '10',
  available_after: '90',
  frozen_after: '10',
  ref_type: 'spot_order',
  ref_id: '1',
});

const flows = [
  flow(1, 'spot_freeze', 'spot_freeze'),
  flow(2, 'spot_fill', 'spot_fill'),
  flow(3, 'spot_release', 'spot_release'),
  flow(4, 'deposit', 'Deposit'),
  flow(5, 'launchpad_refund', 'Subscription refund'),
  flow(6, 'mystery_thing', 'mystery_thing'),
];

function render() {
  vi.stubGlobal(
    'fetch',
    fetchStub({
      'wallet/currencies': ok([USDT]),
      'wallet/legal_log': ok({ list: flows, page: 1, limit: 20, total: flows.length }),
    }).fn,
  );
  renderPage(<RecordPage />, paths.record, `${paths.record}?tab=flows`);
}

describe('funds record: why each balance changed', () => {
  afterEach(async () => {
    await changeLanguage('en');
  });

  it('labels spot freezes, fills and releases in words, never as codes', async () => {
    render();
    expect(await screen.findByText(en.wallet.reason.spot_freeze)).toBeTruthy();
    expect(screen.getByText(en.wallet.reason.spot_fill)).toBeTruthy();
    expect(screen.getByText(en.wallet.reason.spot_release)).toBeTruthy();
    expect(screen.getByText(en.wallet.reason.deposit)).toBeTruthy();
    // a reason the app does not know: the server's own text, or a generic label for a bare code
    expect(screen.getByText('Subscription refund')).toBeTruthy();
    expect(screen.getByText(en.wallet.reason.other)).toBeTruthy();
    for (const code of ['spot_freeze', 'spot_fill', 'spot_release', 'mystery_thing']) {
      expect(screen.queryByText(code)).toBeNull();
    }
  });

  it('speaks Thai in the Thai interface', async () => {
    await changeLanguage('th');
    render();
    expect(await screen.findByText(th.wallet.reason.spot_fill)).toBeTruthy();
    expect(screen.getByText(th.wallet.reason.spot_freeze)).toBeTruthy();
    expect(screen.getByText(th.wallet.reason.other)).toBeTruthy();
  });
});
