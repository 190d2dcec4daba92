import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { paths } from '../../shared/paths';
import { setSession } from '../../shared/session';
import { fakeSocket, handlerCount, pushEvent, resetFakeSocket } from '../../test/fake-socket';
import { ok, renderPage } from '../../test/render';
import KlinePage from './KlinePage';
import MarketListPage from './MarketListPage';

// ---- fakes at the edges: the chart library (canvas) and the socket ---------------------------

const fake = vi.hoisted(() => {
  type Loader = {
    getBars: (p: {
      type: string;
      timestamp: number | null;
      callback: (d: unknown[], more?: unknown) => void;
    }) => void;
  };
  const state = { loader: null as Loader | null, bars: [] as unknown[] };
  const chart = {
    setDataLoader: (l: Loader) => {
      state.loader = l;
    },
    setStyles: () => {},
    overrideYAxis: () => {},
    setSymbol: () => {},
    setPeriod: () => {
      state.loader?.getBars({
        type: 'init',
        timestamp: null,
        callback: (d) => {
          state.bars = d;
        },
      });
    },
    removeIndicator: () => true,
    createIndicator: () => 'id',
    resize: () => {},
  };
  return { state, chart };
});

vi.mock('klinecharts', () => ({ init: () => fake.chart, dispose: () => {}, registerLocale: () => {} }));
vi.mock('socket.io-client', async () => ({ io: (await import('../../test/fake-socket')).fakeIo }));

const { closeSocket } = await import('../../shared/socket');

afterEach(() => {
  closeSocket();
  resetFakeSocket();
});

// ---- API answers ---------------------------------------------------------------------------

const btc = {
  id: 1,
  symbol: 'btcusdt',
  name: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  base_currency_id: 1,
  quote_currency_id: 3,
  tick_size: '0.01',
  lot_size: '0.00001',
  min_amount: '5',
  maker_fee: '0.001',
  taker_fee: '0.002',
  price_decimals: 2,
  amount_decimals: 5,
  last: '50000',
  index_price: '50001.5',
  open_24h: '49000',
  high_24h: '51000',
  low_24h: '48000',
  volume_24h: '12.5',
  amount_24h: '625000',
  change_24h: '2.04',
  favourite: false,
};
const eth = {
  ...btc,
  id: 2,
  symbol: 'ethusdt',
  name: 'ETH/USDT',
  base: 'ETH',
  last: '3000',
  change_24h: '-1.5',
};

const deal = {
  symbol: 'btcusdt',
  trades: [{ id: 't1', price: '50000', qty: '0.1', amount: '5000', side: 'buy', time: 1_700_000_000_000 }],
  depth: { bids: [{ price: '49990', qty: '1.2' }], asks: [{ price: '50010', qty: '0.8' }] },
};

const balance = (symbol: string, available: string, decimals: number) => ({
  currency_id: symbol === 'BTC' ? 1 : 3,
  symbol,
  name: symbol,
  decimals,
  total: available,
  available,
  frozen: '0',
  usdt_value: null,
});
const wallet = {
  total_usdt: '0',
  valued: true,
  accounts: [
    {
      type: 'spot',
      total_usdt: '0',
      valued: true,
      currencies: [balance('USDT', '1000', 6), balance('BTC', '0.5', 8)],
    },
  ],
};

const waitingOrder = {
  id: '41',
  symbol: 'btcusdt',
  name: 'BTC/USDT',
  side: 'buy',
  type: 'limit',
  status: 'waiting',
  price: '40000',
  qty: '0.01',
  amount: null,
  filled_qty: '0',
  filled_amount: '0',
  avg_price: null,
  fee: '0',
  fee_currency: 'BTC',
  cancel_reason: null,
  created_at: '2023-11-14T22:13:20.000Z',
  updated_at: '2023-11-14T22:13:20.000Z',
  fills: [],
};

type Call = { method: string; path: string; query: URLSearchParams; body: URLSearchParams };
type Answer = ReturnType<typeof ok> | { type: string; code: number; message: string };

function api(extra: Record<string, (c: Call) => Answer> = {}) {
  const calls: Call[] = [];
  const answers: Record<string, (c: Call) => Answer> = {
    'GET currency/quotation_new': () => ok([btc, eth]),
    'GET currency/deal': () => ok(deal),
    'GET currency/new_timeshar': (c) =>
      ok({
        symbol: c.query.get('symbol'),
        interval: c.query.get('interval'),
        list: [
          {
            time: 1_700_000_000_000,
            open: '49000',
            high: '50500',
            low: '48800',
            close: '50000',
            volume: '3',
            amount: '150000',
            source: 'trade',
          },
        ],
      }),
    'GET coin/list': () => ok({ list: [], page: 1, limit: 50, total: 0 }),
    'POST wallet/list': () => ok(wallet),
    ...extra,
  };
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api\//, ''),
      query: url.searchParams,
      body:
        init?.body instanceof URLSearchParams
          ? init.body
          : new URLSearchParams(typeof init?.body === 'string' ? init.body : ''),
    };
    calls.push(call);
    const answer = answers[`${call.method} ${call.path}`];
    const envelope = answer
      ? answer(call)
      : { type: 'error', code: 1404, message: `no stub for ${call.path}` };
    return new Response(JSON.stringify(envelope), {
      status: envelope.code === 1 ? 200 : 400,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  vi.stubGlobal('fetch', fn);
  return calls;
}

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

const kline = `${paths.kline}?symbol=btcusdt`;

function lastDialog() {
  const dialogs = screen.getAllByRole('dialog');
  return dialogs[dialogs.length - 1] as HTMLElement;
}

async function openBuy() {
  fireEvent.click(await screen.findByRole('button', { name: en.trade.buy }));
  return screen.findByRole('button', { name: 'Buy BTC' });
}

// ---- the chart page ------------------------------------------------------------------------

describe('chart page', () => {
  it('asks for the candles of the interval chosen, and joins its stream', async () => {
    const calls = api();
    renderPage(<KlinePage />, paths.kline, kline);

    await waitFor(() =>
      expect(
        calls.some((c) => c.path === 'currency/new_timeshar' && c.query.get('interval') === '1min'),
      ).toBe(true),
    );
    expect(calls.find((c) => c.path === 'currency/new_timeshar')?.query.get('symbol')).toBe('btcusdt');

    fireEvent.click(screen.getByRole('tab', { name: '5m' }));
    await waitFor(() =>
      expect(
        calls.some((c) => c.path === 'currency/new_timeshar' && c.query.get('interval') === '5min'),
      ).toBe(true),
    );
    fireEvent.click(screen.getByRole('tab', { name: 'Line' }));
    await waitFor(() =>
      expect(
        calls.some((c) => c.path === 'currency/new_timeshar' && c.query.get('interval') === 'timeshare'),
      ).toBe(true),
    );
    await waitFor(() =>
      expect(fakeSocket.emit).toHaveBeenCalledWith(
        'sub',
        expect.arrayContaining(['kline:btcusdt:timeshare']),
      ),
    );
    expect(fakeSocket.emit).toHaveBeenCalledWith('unsub', expect.arrayContaining(['kline:btcusdt:5min']));
  });

  it('shows the 24 h figures, and the price the socket sends', async () => {
    api();
    renderPage(<KlinePage />, paths.kline, kline);
    await waitFor(() => expect(screen.getByTestId('last-price').textContent).toBe('50,000.00'));
    expect(screen.getByText('51,000.00')).toBeTruthy();
    expect(screen.getByText('48,000.00')).toBeTruthy();
    await waitFor(() => expect(handlerCount('ticker')).toBeGreaterThan(0));

    act(() => pushEvent('ticker', { ...btc, last: '52345.678', change_24h: '6.8' }));
    // the query cache tells the page on its next tick
    await waitFor(() => expect(screen.getByTestId('last-price').textContent).toBe('52,345.67'));
    expect(screen.getByText('+6.80%')).toBeTruthy();

    // another market's ticker changes nothing here
    act(() => pushEvent('ticker', { ...eth, last: '1' }));
    expect(screen.getByTestId('last-price').textContent).toBe('52,345.67');
  });

  it('is readable before the market data arrives, and nothing moves when it does', async () => {
    let answer: (() => void) | undefined;
    const ready = new Promise<void>((r) => {
      answer = r;
    });
    api();
    const answered = globalThis.fetch;
    // the market list answers only when the test says
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('quotation_new')) await ready;
      return answered(input, init);
    });
    renderPage(<KlinePage />, paths.kline, kline);
    // the pair from the address, dashes where figures go, the chart's place, the buy/sell bar
    expect(await screen.findByRole('heading', { name: 'BTC/USDT' })).toBeTruthy();
    expect(screen.getByTestId('last-price').textContent).toBe('—');
    expect(screen.getByRole('button', { name: en.trade.loginToBuy })).toBeTruthy();
    expect(document.querySelector('.v-market-chart--skeleton')).toBeTruthy();
    answer?.();
    await waitFor(() => expect(screen.getByTestId('last-price').textContent).toBe('50,000.00'));
    await screen.findByTestId('candle-chart');
    expect(document.querySelector('.v-market-chart--skeleton')).toBeNull();
  });

  it('applies a burst of socket messages together', async () => {
    api();
    renderPage(<KlinePage />, paths.kline, kline);
    await within(await screen.findByTestId('depth')).findByText('49,990.00');
    await waitFor(() => expect(handlerCount('depth')).toBeGreaterThan(0));
    act(() => {
      for (const price of ['49991', '49992', '49993'])
        pushEvent('depth', { symbol: 'btcusdt', bids: [{ price, qty: '1' }], asks: [] });
      pushEvent('ticker', { ...btc, last: '50100' });
      pushEvent('ticker', { ...btc, last: '50200' });
    });
    // the latest of each, once the frame comes
    await waitFor(() => expect(within(screen.getByTestId('depth')).getByText('49,993.00')).toBeTruthy());
    expect(within(screen.getByTestId('depth')).queryByText('49,991.00')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('last-price').textContent).toBe('50,200.00'));
  });

  it('keeps depth and trades live', async () => {
    api();
    renderPage(<KlinePage />, paths.kline, kline);
    expect(await within(await screen.findByTestId('depth')).findByText('49,990.00')).toBeTruthy();
    await waitFor(() => expect(handlerCount('depth')).toBeGreaterThan(0));
    act(() =>
      pushEvent('depth', {
        symbol: 'btcusdt',
        bids: [{ price: '49995.5', qty: '2' }],
        asks: [{ price: '50020', qty: '1' }],
      }),
    );
    await waitFor(() => expect(within(screen.getByTestId('depth')).getByText('49,995.50')).toBeTruthy());
    expect(within(screen.getByTestId('depth')).queryByText('49,990.00')).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: en.market.trades }));
    act(() =>
      pushEvent('trades', {
        symbol: 'btcusdt',
        list: [
          { id: 't2', price: '50111', qty: '0.2', amount: '10022.2', side: 'sell', time: 1_700_000_001_000 },
        ],
      }),
    );
    await waitFor(() => expect(within(screen.getByTestId('trades')).getByText('50,111.00')).toBeTruthy());
  });

  it('fills the quantity of a percentage shortcut as a decimal string', async () => {
    setSession('tok', user);
    api();
    renderPage(<KlinePage />, paths.kline, kline);
    await openBuy();
    await waitFor(() => expect(screen.getByTestId('available').textContent).toContain('1,000'));
    // 50 % of 1000 USDT at the limit price 50000 → 0.01 BTC
    fireEvent.click(screen.getByRole('button', { name: '50%' }));
    expect((screen.getByRole('textbox', { name: en.trade.qtyLabel }) as HTMLInputElement).value).toBe('0.01');
    // 75 % at 30000 → 0.025 BTC (whole lots of 0.00001)
    fireEvent.change(screen.getByRole('textbox', { name: en.trade.priceLabel }), {
      target: { value: '30000' },
    });
    fireEvent.click(screen.getByRole('button', { name: '75%' }));
    expect((screen.getByRole('textbox', { name: en.trade.qtyLabel }) as HTMLInputElement).value).toBe(
      '0.025',
    );

    // selling: a quarter of 0.5 BTC
    fireEvent.click(screen.getByRole('tab', { name: en.trade.sell }));
    await waitFor(() => expect(screen.getByTestId('available').textContent).toContain('0.5'));
    fireEvent.click(screen.getByRole('button', { name: '25%' }));
    expect((screen.getByRole('textbox', { name: en.trade.qtyLabel }) as HTMLInputElement).value).toBe(
      '0.125',
    );

    // a market buy spends an amount: all of the USDT
    fireEvent.click(screen.getByRole('tab', { name: en.trade.buy }));
    fireEvent.click(screen.getByRole('tab', { name: en.trade.type.market }));
    fireEvent.click(screen.getByRole('button', { name: '100%' }));
    expect((screen.getByRole('textbox', { name: en.trade.amountLabel }) as HTMLInputElement).value).toBe(
      '1000',
    );
    expect(screen.getByTestId('fee').textContent).toContain('0.2%');
  });

  it('asks for the price of a limit order and the quantity, without calling the server', async () => {
    setSession('tok', user);
    const calls = api();
    renderPage(<KlinePage />, paths.kline, kline);
    const submit = await openBuy();
    fireEvent.change(screen.getByRole('textbox', { name: en.trade.priceLabel }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('textbox', { name: en.trade.qtyLabel }), { target: { value: '0.01' } });
    fireEvent.click(submit);
    expect(await screen.findByText(en.trade.priceRequired)).toBeTruthy();

    fireEvent.change(screen.getByRole('textbox', { name: en.trade.priceLabel }), {
      target: { value: '50000' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: en.trade.qtyLabel }), { target: { value: '' } });
    fireEvent.click(submit);
    expect(await screen.findByText(en.trade.buyQtyRequired)).toBeTruthy();
    expect(calls.some((c) => c.path === 'coin/trade')).toBe(false);
  });

  it('places a limit order after confirmation, and shows the server refusal as it words it', async () => {
    setSession('tok', user);
    let placed = 0;
    const calls = api({
      'POST coin/trade': () =>
        placed++ === 0
          ? ok({ ...waitingOrder }, 'Order placed')
          : { type: 'error', code: 1501, message: 'Insufficient balance' },
    });
    renderPage(<KlinePage />, paths.kline, kline);
    const submit = await openBuy();
    fireEvent.change(screen.getByRole('textbox', { name: en.trade.priceLabel }), {
      target: { value: '40000' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: en.trade.qtyLabel }), { target: { value: '0.01' } });
    fireEvent.click(submit);
    await screen.findByText(en.trade.confirmTitle);
    fireEvent.click(within(lastDialog()).getByText(en.common.confirm));
    expect(await screen.findByText('Order placed')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST' && c.path === 'coin/trade');
    expect(Object.fromEntries(post?.body ?? [])).toEqual({
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      price: '40000',
      qty: '0.01',
    });

    const again = await openBuy();
    fireEvent.change(screen.getByRole('textbox', { name: en.trade.qtyLabel }), { target: { value: '5' } });
    fireEvent.click(again);
    await waitFor(() => expect(screen.getAllByText(en.trade.confirmTitle).length).toBeGreaterThan(0));
    fireEvent.click(within(lastDialog()).getByText(en.common.confirm));
    expect(await screen.findByText('Insufficient balance')).toBeTruthy();
  });

  it('cancels an open order only after confirmation', async () => {
    setSession('tok', user);
    const calls = api({
      'GET coin/list': (c) =>
        ok({
          list: c.query.get('status') === 'waiting' ? [waitingOrder] : [],
          page: 1,
          limit: 50,
          total: 1,
        }),
      'PUT coin/trade': () => ok({ ...waitingOrder, status: 'cancelled' }, 'Order cancelled'),
    });
    renderPage(<KlinePage />, paths.kline, kline);
    const order = await screen.findByTestId('order-41');
    // placed at 22:13:20 UTC (ISO text), shown as month-day and time in the device's zone
    expect(order.querySelector('.v-market-order__time')?.textContent).toMatch(/^\d\d-\d\d \d\d:\d\d:20$/);
    fireEvent.click(within(order).getByRole('button', { name: en.trade.cancel }));
    expect(await screen.findByText(en.trade.cancelConfirm)).toBeTruthy();
    fireEvent.click(within(lastDialog()).getByText(en.trade.keep));
    await waitFor(() => expect(screen.queryByText(en.trade.cancelConfirm)).toBeNull());
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    fireEvent.click(within(order).getByRole('button', { name: en.trade.cancel }));
    await screen.findByText(en.trade.cancelConfirm);
    fireEvent.click(within(lastDialog()).getByText(en.trade.cancel));
    expect(await screen.findByText('Order cancelled')).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT' && c.path === 'coin/trade');
    expect(Object.fromEntries(put?.body ?? [])).toEqual({ id: '41' });
  });

  it('sends visitors to log in to trade', async () => {
    api();
    const { router } = renderPage(<KlinePage />, paths.kline, kline);
    fireEvent.click(await screen.findByRole('button', { name: en.trade.loginToBuy }));
    await waitFor(() => expect(router.state.location.pathname).toBe(paths.login));
    expect(router.state.location.search).toContain(encodeURIComponent(kline));
  });
});

// ---- the market list -----------------------------------------------------------------------

describe('spot market list', () => {
  it('searches, and shows live prices', async () => {
    api();
    renderPage(<MarketListPage />, paths.trade);
    expect((await screen.findByTestId('price-btcusdt')).textContent).toBe('50,000.00');
    fireEvent.change(screen.getByPlaceholderText(en.market.searchPlaceholder), { target: { value: 'eth' } });
    expect(screen.queryByTestId('price-btcusdt')).toBeNull();
    expect(screen.getByTestId('price-ethusdt')).toBeTruthy();

    await waitFor(() => expect(fakeSocket.emit).toHaveBeenCalledWith('sub', ['tickers']));
    act(() => pushEvent('tickers', [{ ...eth, last: '3123.45' }]));
    await waitFor(() => expect(screen.getByTestId('price-ethusdt').textContent).toBe('3,123.45'));
  });

  it('asks visitors to log in before adding a favourite', async () => {
    const calls = api();
    const { router } = renderPage(<MarketListPage />, paths.trade);
    fireEvent.click(await screen.findByRole('button', { name: 'Add BTC/USDT to favourites' }));
    expect(await screen.findByText(en.market.loginForFavourites)).toBeTruthy();
    fireEvent.click(within(lastDialog()).getByText(en.market.logIn));
    await waitFor(() => expect(router.state.location.pathname).toBe(paths.login));
    expect(calls.some((c) => c.path === 'currency/user_currency_add')).toBe(false);
  });

  it('adds and removes favourites for a user', async () => {
    setSession('tok', user);
    const calls = api({
      'POST currency/user_currency_add': () => ok(null, 'Added to favourites'),
      'POST currency/user_currency_remove': () => ok(null, 'Removed from favourites'),
    });
    renderPage(<MarketListPage />, paths.trade);
    fireEvent.click(await screen.findByRole('button', { name: 'Add BTC/USDT to favourites' }));
    await screen.findByRole('button', { name: 'Remove BTC/USDT from favourites' });
    expect(
      Object.fromEntries(calls.find((c) => c.path === 'currency/user_currency_add')?.body ?? []),
    ).toEqual({
      symbol: 'btcusdt',
    });

    fireEvent.click(screen.getByRole('tab', { name: en.market.favourites }));
    expect(screen.getByTestId('price-btcusdt')).toBeTruthy();
    expect(screen.queryByTestId('price-ethusdt')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Remove BTC/USDT from favourites' }));
    expect(await screen.findByText(en.market.noFavourites)).toBeTruthy();
    expect(calls.some((c) => c.path === 'currency/user_currency_remove')).toBe(true);
  });
});
