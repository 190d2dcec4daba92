import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { formatTime } from '../../shared/datetime';
import { paths } from '../../shared/paths';
import { setSession } from '../../shared/session';
import { pushEvent, resetFakeSocket } from '../../test/fake-socket';
import { ok, renderPage } from '../../test/render';
import OptionPage from './OptionPage';

vi.mock('socket.io-client', async () => ({ io: (await import('../../test/fake-socket')).fakeIo }));
const { closeSocket } = await import('../../shared/socket');

afterEach(() => {
  closeSocket();
  resetFakeSocket();
  localStorage.clear();
});

const btc = {
  id: 1,
  symbol: 'btcusdt',
  name: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  price_decimals: 2,
  amount_decimals: 5,
  last: '50000',
  index_price: '50001.5',
  change_24h: '2.04',
  favourite: false,
};
const seconds = [30, 60].map((s, i) => ({
  symbol: 'btcusdt',
  name: 'BTC/USDT',
  seconds: s,
  profit_ratio: i === 0 ? '0.8' : '0.85',
  fee_rate: '0.02',
  min_amount: '10',
  max_amount: '5000',
}));
/** API times are ISO text. */
const at = (ms: number) => new Date(ms).toISOString();
const bought = Date.now();
const order = {
  id: '9',
  symbol: 'btcusdt',
  name: 'BTC/USDT',
  currency: 'USDT',
  direction: 'bullish',
  seconds: 30,
  amount: '100',
  profit_ratio: '0.8',
  fee_rate: '0.02',
  expected_profit: '78.4',
  status: 'waiting',
  purchase_time: at(bought),
  deliver_at: at(bought + 30_000),
  purchase: { id: '71', price: '50001.5', time: at(bought - 400) },
  delivery: null,
  result: null,
  payout: null,
  pnl: null,
  fee: null,
  settled_at: null,
};

type Call = { method: string; path: string; body: URLSearchParams };
function api() {
  const calls: Call[] = [];
  const answers: Record<string, () => unknown> = {
    'GET currency/quotation_new': () => ok([btc]),
    'GET currency/new_timeshar': () => ok({ symbol: 'btcusdt', interval: '1min', list: [] }),
    'GET microtrade/seconds': () => ok(seconds),
    'GET microtrade/payable_currencies': () =>
      ok([{ currency_id: 3, symbol: 'USDT', decimals: 6, available: '1000' }]),
    'GET microtrade/lists': () => ok({ list: [], page: 1, limit: 20, total: 0 }),
    'POST microtrade/submit': () => ok(order, 'Purchase successful'),
  };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api\//, ''),
      body: new URLSearchParams(typeof init?.body === 'string' ? init.body : (init?.body as URLSearchParams)),
    };
    calls.push(call);
    const answer = answers[`${call.method} ${call.path}`];
    const envelope = answer ? answer() : { type: 'error', code: 1404, message: `no stub for ${call.path}` };
    return new Response(JSON.stringify(envelope), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return calls;
}

const user = (verification: string) => ({
  id: 7,
  nickname: 'Ploy',
  account: 'p@example.com',
  area_code: null,
  mobile: null,
  email: 'p@example.com',
  lang: 'en',
  invite_code: 'P7',
  verification,
  advanced_verification: 'none',
  has_fund_password: false,
  created_at: '2025-01-01T00:00:00.000Z',
});

const bullish = () => screen.findByRole('button', { name: `↑ ${en.option.bullish}` });

describe('options tab', () => {
  it('sends a visitor who taps bullish to log in', async () => {
    api();
    renderPage(<OptionPage />, paths.option);
    expect(await screen.findByText('50,001.50')).toBeTruthy();
    fireEvent.click(await bullish());
    expect(await screen.findByTestId('elsewhere')).toBeTruthy();
  });

  it('asks an unverified account to verify before the buy popup', async () => {
    api();
    setSession('tok', user('none') as never);
    renderPage(<OptionPage />, paths.option);
    fireEvent.click(await bullish());
    expect(await screen.findByText(en.option.notVerified)).toBeTruthy();
    expect(document.querySelector('.v-option-buy')).toBeNull();
  });

  it('checks the time first, then the amount and its range, the balance; then buys and shows the delivery', async () => {
    const calls = api();
    setSession('tok', user('verified') as never);
    renderPage(<OptionPage />, paths.option);
    fireEvent.click(await bullish());
    const popup = await waitFor(() => document.querySelector('.v-option-buy') as HTMLElement);
    const confirm = () => fireEvent.click(within(popup).getByRole('button', { name: en.option.confirm }));
    const alert = () => within(popup).getByRole('alert').textContent;
    await within(popup).findByText(/Win: stake \+ profit − 2% fee/);

    confirm();
    expect(alert()).toContain(en.option.chooseTimeFirst);
    fireEvent.click(within(popup).getByRole('button', { name: /^30 s/ }));
    confirm();
    expect(alert()).toContain(en.option.amountRequired);
    const input = within(popup).getByPlaceholderText('10 – 5,000 USDT');
    fireEvent.change(input, { target: { value: '5' } });
    confirm();
    expect(alert()).toContain('The amount must be between 10 and 5,000 USDT');
    await within(popup).findByText('1,000 USDT', { exact: false });
    fireEvent.change(input, { target: { value: '1000.5' } });
    confirm();
    expect(alert()).toContain(en.option.insufficient);
    expect(calls.some((c) => c.path === 'microtrade/submit')).toBe(false);

    fireEvent.change(input, { target: { value: '100' } });
    expect(within(popup).getByTestId('option-expected').textContent).toBe('+78.4 USDT');
    confirm();
    await waitFor(() => expect(calls.some((c) => c.path === 'microtrade/submit')).toBe(true));
    const sent = calls.find((c) => c.path === 'microtrade/submit')!.body;
    expect(Object.fromEntries(sent)).toEqual({
      symbol: 'btcusdt',
      seconds: '30',
      currency: 'USDT',
      amount: '100',
      direction: 'bullish',
    });

    // the delivery arrives over the socket: the result with both ticks
    await act(async () => {
      pushEvent('option', {
        ...order,
        status: 'delivered',
        delivery: { id: '99', price: '50002', time: at(bought + 30_300) },
        result: 'win',
        payout: '178.4',
        pnl: '78.4',
        fee: '1.6',
        settled_at: at(bought + 30_320),
      });
    });
    expect(await screen.findByText('Delivered: Win')).toBeTruthy();
    expect(screen.getByTestId('option-pnl').textContent).toContain('+78.4 USDT');
    expect(screen.getByText('50,002.00')).toBeTruthy();
    // the delivery tick's time, given as ISO text, shown in the device's time zone
    expect(screen.getByText(`#99 · ${formatTime(at(bought + 30_300))}`)).toBeTruthy();
  });
});
