import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_SCREEN_SECTIONS } from '../../locale-split';
import en from '../locales/en.json';
import th from '../locales/th.json';
import { fetchStub, ok, renderRoutes } from '../test/render';
import { routes } from './routes';

const ticker = (symbol: string, base: string, last: string, change: string) => ({
  id: 1,
  symbol,
  name: `${base}/USDT`,
  base,
  quote: 'USDT',
  base_currency_id: 1,
  quote_currency_id: 3,
  tick_size: '0.01',
  lot_size: '0.0001',
  min_amount: '5',
  maker_fee: '0.001',
  taker_fee: '0.001',
  price_decimals: 2,
  amount_decimals: 4,
  last,
  index_price: last,
  open_24h: last,
  high_24h: last,
  low_24h: last,
  volume_24h: '10',
  amount_24h: '1000',
  change_24h: change,
  favourite: false,
});

afterEach(() => {
  i18next.options.saveMissing = false;
  i18next.options.missingKeyHandler = false;
  i18next.addResourceBundle('en', 'translation', en, true, true);
  i18next.addResourceBundle('th', 'translation', th, true, true);
});

describe('the first screen', () => {
  it("draws the app shell and Home with the first part of the language's texts alone", async () => {
    // i18next holds what the app starts with: no rest, no Thai fallback
    i18next.removeResourceBundle('en', 'translation');
    i18next.removeResourceBundle('th', 'translation');
    const first = Object.fromEntries(Object.entries(en).filter(([k]) => FIRST_SCREEN_SECTIONS.includes(k)));
    i18next.addResourceBundle('en', 'translation', first);
    const missing: string[] = [];
    i18next.options.saveMissing = true;
    i18next.options.missingKeyHandler = (_lngs, _ns, key) => {
      missing.push(key);
    };
    vi.stubGlobal(
      'fetch',
      fetchStub({
        'currency/quotation_new': ok([
          ticker('btcusdt', 'BTC', '50000', '1.2'),
          ticker('ethusdt', 'ETH', '3000', '-4'),
        ]),
      }).fn,
    );

    renderRoutes(routes, '/');
    expect((await screen.findByTestId('price-btcusdt')).textContent).toBe('50,000.00');
    expect(screen.getByText(en.tabs.home)).toBeTruthy();
    expect(missing).toEqual([]);
  });
});
