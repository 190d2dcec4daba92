import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EarlyRequest } from '../early';
import { fetchStub, ok } from '../test/render';
import { api } from './api';
import { EARLY_MAX_AGE_MS, takeEarlyResponse } from './early-requests';
import { changeLanguage } from './i18n';
import { setSession } from './session';

function early(over: Partial<EarlyRequest> = {}): EarlyRequest {
  return {
    method: 'GET',
    url: '/api/currency/quotation_new',
    lang: 'en',
    token: null,
    at: Date.now(),
    response: Promise.resolve(new Response(JSON.stringify(ok([{ symbol: 'btcusdt' }])))),
    ...over,
  };
}

describe('answers asked for early', () => {
  beforeEach(async () => {
    await changeLanguage('en');
  });
  afterEach(() => {
    delete window.__verdantEarly;
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('hands over the same request once', () => {
    const r = early();
    window.__verdantEarly = [r];
    expect(takeEarlyResponse('GET', r.url, 'en', null)).toBe(r.response);
    expect(takeEarlyResponse('GET', r.url, 'en', null)).toBeNull();
  });

  it('keeps it from another method, language, session, or once the page has long opened', () => {
    const r = early();
    window.__verdantEarly = [r];
    expect(takeEarlyResponse('POST', r.url, 'en', null)).toBeNull();
    expect(takeEarlyResponse('GET', r.url, 'th', null)).toBeNull();
    expect(takeEarlyResponse('GET', r.url, 'en', 'tok')).toBeNull();
    expect(takeEarlyResponse('GET', r.url, 'en', null, r.at + EARLY_MAX_AGE_MS)).toBeNull();
  });

  it('the API client uses the early answer instead of asking again', async () => {
    const stub = fetchStub({});
    vi.stubGlobal('fetch', stub.fn);
    window.__verdantEarly = [early()];
    await expect(api.get('currency/quotation_new')).resolves.toEqual([{ symbol: 'btcusdt' }]);
    expect(stub.calls).toHaveLength(0);
  });

  it('asks again when the early request failed, or was for another session', async () => {
    const stub = fetchStub({ 'wallet/list': ok({ list: [] }) });
    vi.stubGlobal('fetch', stub.fn);
    setSession('tok-1', null as never);
    window.__verdantEarly = [
      early({
        method: 'POST',
        url: '/api/wallet/list',
        token: 'tok-1',
        response: Promise.reject(new TypeError('offline')),
      }),
    ];
    await expect(api.post('wallet/list')).resolves.toEqual({ list: [] });
    expect(stub.calls).toHaveLength(1);
    window.__verdantEarly = [early({ method: 'POST', url: '/api/wallet/list', token: 'tok-0' })];
    await api.post('wallet/list');
    expect(stub.calls).toHaveLength(2);
  });
});
