import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { formatTime } from '../../shared/datetime';
import { paths } from '../../shared/paths';
import { clearSession, setSession } from '../../shared/session';
import { handlerCount, pushEvent, resetFakeSocket } from '../../test/fake-socket';
import { fetchStub, ok, renderPage } from '../../test/render';
import LeverPage from './LeverPage';

vi.mock('socket.io-client', async () => ({ io: (await import('../../test/fake-socket')).fakeIo }));
const { closeSocket } = await import('../../shared/socket');

afterEach(() => {
  closeSocket();
  resetFakeSocket();
  clearSession();
  vi.unstubAllGlobals();
});

const btc = {
  id: 1,
  symbol: 'btcusdt',
  name: 'BTC/USDT',
  currency: 'USDT',
  currency_id: 3,
  currency_decimals: 6,
  lot_value: '0.01',
  multiples: [5, 10, 20, 50, 100],
  open_fee_rate: '0.0005',
  close_fee_rate: '0.0005',
  maintenance_rate: '0.005',
  max_lots_per_order: 500,
  max_lots_per_user: 2000,
  max_open_positions: 50,
  tick_size: '0.01',
  price_decimals: 2,
  price: { id: '9', symbol: 'btcusdt', price: '60000', time: '2023-11-14T22:13:20.000Z', source: 'sim' },
};

const holding = {
  id: '41',
  symbol: 'btcusdt',
  name: 'BTC/USDT',
  direction: 'long',
  type: 'market',
  status: 'holding',
  price: '60000',
  lots: 1,
  lot_value: '0.01',
  multiple: 10,
  market_value: '600',
  margin: '60',
  fee: '0.3',
  open_fee: '0.3',
  close_fee: null,
  open_price: '60000',
  current_price: '60000',
  pnl: '0',
  payout: null,
  take_profit: null,
  stop_loss: null,
  liquidation_price: '54300',
  close_reason: null,
  open_tick: btc.price,
  close_tick: null,
  created_at: '2023-11-14T22:13:20.000Z',
  opened_at: '2023-11-14T22:13:20.000Z',
  closed_at: null,
  history: [
    {
      kind: 'open',
      price: '60000',
      take_profit: null,
      stop_loss: null,
      tick: btc.price,
      time: '2023-11-14T22:13:20.000Z',
    },
  ],
};

const user = {
  id: 7,
  nickname: 'Ploy',
  account: 'p@example.com',
  area_code: null,
  mobile: null,
  email: 'p@example.com',
  lang: 'en',
  invite_code: 'P7',
  verification: 'none',
  advanced_verification: 'none',
  has_fund_password: false,
  created_at: '2025-01-01T00:00:00.000Z',
} as const;

function stub(available: string, list: unknown[] = []) {
  const s = fetchStub({
    'lever/deal': ok({ list: [btc], current: btc, balance: { available, frozen: '0' } }),
    'lever/my_trade': ok({ list, page: 1, limit: 50, total: list.length }),
    'currency/new_timeshar': ok({ symbol: 'btcusdt', interval: '1min', list: [] }),
    'lever/submit': ok(holding),
  });
  vi.stubGlobal('fetch', s.fn);
  return s.calls;
}

const lever = `${paths.lever}?symbol=btcusdt`;

describe('contract screen', () => {
  it('shows margin, fee, market value and balance before opening, and offers a transfer when short', async () => {
    setSession('tok', user);
    stub('100');
    renderPage(<LeverPage />, paths.lever, lever);
    // 1 lot × 0.01 BTC at 60,000 with 10×: value 600, margin 60, fee 0.3
    await waitFor(() => expect(screen.getByTestId('margin').textContent).toBe('60'));
    expect(screen.getByTestId('fee').textContent).toBe('0.3');
    expect(screen.getByTestId('available').textContent).toBe('100 USDT');
    expect(screen.queryByText(en.contract.short_balance)).toBeNull();
    // two lots at 10× need 120.6: more than the balance
    fireEvent.click(screen.getByTestId('more-lots'));
    await waitFor(() => expect(screen.getByTestId('margin').textContent).toBe('120'));
    expect(screen.getByText(en.contract.short_balance)).toBeTruthy();
    expect(screen.getByRole('button', { name: en.contract.transfer })).toBeTruthy();
  });

  it('asks for both take-profit and stop-loss on the right sides, without calling the server', async () => {
    setSession('tok', user);
    const calls = stub('1000');
    renderPage(<LeverPage />, paths.lever, lever);
    await waitFor(() => expect(screen.getByTestId('margin').textContent).toBe('60'));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.change(screen.getByRole('textbox', { name: en.contract.takeProfit }), {
      target: { value: '61000' },
    });
    fireEvent.click(screen.getByTestId('submit'));
    expect(await screen.findByText(en.contract.errors.stopsRequired)).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: en.contract.stopLoss }), {
      target: { value: '60500' },
    });
    fireEvent.click(screen.getByTestId('submit'));
    expect(
      await screen.findByText('The stop-loss price must be below 60,000 for a long and above it for a short'),
    ).toBeTruthy();
    expect(calls.some((c) => c.path === 'lever/submit')).toBe(false);
  });

  it('opens a 10× long after the confirmation and sends lots and multiple', async () => {
    setSession('tok', user);
    const calls = stub('1000');
    renderPage(<LeverPage />, paths.lever, lever);
    await waitFor(() => expect(screen.getByTestId('margin').textContent).toBe('60'));
    fireEvent.click(screen.getByTestId('submit'));
    const dialogs = await screen.findAllByRole('dialog');
    const dialog = dialogs[dialogs.length - 1] as HTMLElement;
    expect(within(dialog).getByText(en.contract.margin)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: en.common.confirm }));
    await waitFor(() => expect(calls.some((c) => c.path === 'lever/submit')).toBe(true));
    const body = calls.find((c) => c.path === 'lever/submit')!.body;
    expect(Object.fromEntries(body)).toMatchObject({
      symbol: 'btcusdt',
      direction: 'long',
      type: 'market',
      lots: '1',
      multiple: '10',
    });
  });

  it("moves a holding position's current price and P&L with the index ticks of the socket", async () => {
    setSession('tok', user);
    stub('1000', [holding]);
    renderPage(<LeverPage />, paths.lever, lever);
    const card = await screen.findByTestId('position-41');
    expect(within(card).getByTestId('pnl').textContent).toBe('0');
    await waitFor(() => expect(handlerCount('contract_tick')).toBeGreaterThan(0));
    act(() =>
      pushEvent('contract_tick', { ...btc.price, id: '10', price: '60500.5', time: 1_700_000_001_000 }),
    );
    await waitFor(() => expect(within(card).getByTestId('pnl').textContent).toBe('5.005'));
    expect(within(card).getByTestId('current-price').textContent).toBe('60,500.5');
    expect(screen.getByTestId('index-price').textContent).toBe('60,500.5');
  });

  it("shows a position's history with each tick's price, source and time (ISO from the API, the device's time zone on screen)", async () => {
    setSession('tok', user);
    stub('1000', [holding]);
    renderPage(<LeverPage />, paths.lever, lever);
    const card = await screen.findByTestId('position-41');
    fireEvent.click(within(card).getByRole('button', { name: en.contract.history }));
    const line = await screen.findByText(/^Index 60,000 at /);
    expect(line.textContent).toBe(
      `Index 60,000 at ${formatTime('2023-11-14T22:13:20.000Z')}, source sim (#9)`,
    );
    expect(line.textContent).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
  });

  it('shows visitors the market and sends them to log in to trade', async () => {
    stub('0');
    renderPage(<LeverPage />, paths.lever, lever);
    await waitFor(() => expect(screen.getByTestId('margin').textContent).toBe('60'));
    expect(screen.getByTestId('available').textContent).toBe('—');
    fireEvent.click(screen.getByTestId('submit'));
    await screen.findByTestId('elsewhere');
  });
});
