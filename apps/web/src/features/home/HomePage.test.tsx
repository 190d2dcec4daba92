import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { paths } from '../../shared/paths';
import { fakeSocket, pushEvent, resetFakeSocket } from '../../test/fake-socket';
import { fetchStub, ok, renderPage } from '../../test/render';
import { ticker } from '../../test/tickers';
import HomePage from './HomePage';

vi.mock('socket.io-client', async () => ({ io: (await import('../../test/fake-socket')).fakeIo }));
const { closeSocket } = await import('../../shared/socket');

afterEach(() => {
  closeSocket();
  resetFakeSocket();
});

describe('home', () => {
  it('lists the pairs, the top gainers first, and goes live over the socket', async () => {
    vi.stubGlobal(
      'fetch',
      fetchStub({
        'currency/quotation_new': ok([
          ticker('btcusdt', 'BTC', '50000', '1.2'),
          ticker('ethusdt', 'ETH', '3000', '-4'),
          ticker('solusdt', 'SOL', '120.5', '9.75'),
          ticker('dogeusdt', 'DOGE', '0.09', '12.01'),
        ]),
      }).fn,
    );
    const { router } = renderPage(<HomePage />, paths.home);
    expect((await screen.findByTestId('price-btcusdt')).textContent).toBe('50,000.00');
    const gainers = screen.getByRole('region', { name: en.market.gainers });
    const names = within(gainers)
      .getAllByRole('button')
      .map((b) => b.querySelector('.v-home__gainer-name')?.textContent);
    expect(names).toEqual(['DOGE/USDT', 'SOL/USDT', 'BTC/USDT']);
    expect(within(gainers).getByText('+12.01%')).toBeTruthy();

    // the socket client loads at the first interaction (first-load budget), then prices are live
    expect(fakeSocket.emit).not.toHaveBeenCalled();
    fireEvent.pointerDown(document.body);
    await waitFor(() => expect(fakeSocket.emit).toHaveBeenCalledWith('sub', ['tickers']));
    act(() => pushEvent('tickers', [ticker('btcusdt', 'BTC', '51234.5', '3.5')]));
    await waitFor(() => expect(screen.getByTestId('price-btcusdt').textContent).toBe('51,234.50'));

    fireEvent.click(screen.getByTestId('price-ethusdt'));
    await waitFor(() => expect(router.state.location.search).toBe('?symbol=ethusdt'));
  });

  it('shows its text first and asks for the prices and notices once that is on the screen', async () => {
    const stub = fetchStub({ 'currency/quotation_new': ok([ticker('btcusdt', 'BTC', '50000', '1.2')]) });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<HomePage />, paths.home);
    // the first render: Home's own words, the rows' room kept, nothing asked yet
    expect(screen.getByText(en.home.quick.vip)).toBeTruthy();
    expect(stub.calls).toHaveLength(0);
    expect((await screen.findByTestId('price-btcusdt')).textContent).toBe('50,000.00');
    expect(stub.calls.map((c) => c.path).sort()).toEqual(['currency/quotation_new', 'news/list']);
  });

  it('opens the VIP deposit channel page, not the ordinary deposit page', async () => {
    vi.stubGlobal('fetch', fetchStub({ 'currency/quotation_new': ok([]) }).fn);
    const { router } = renderPage(<HomePage />, paths.home);
    fireEvent.click(await screen.findByText(en.home.quick.vip));
    await waitFor(() => expect(router.state.location.pathname).toBe(paths.depositVip));
  });
});
