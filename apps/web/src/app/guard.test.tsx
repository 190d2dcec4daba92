import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppEvent } from '../shared/events';
import { setSession } from '../shared/session';
import { fetchStub, ok, renderRoutes } from '../test/render';
import { routes } from './routes';

const user = {
  id: 1,
  nickname: 'Niran',
  account: '812345678',
  area_code: '66',
  mobile: '812345678',
  email: null,
  lang: 'en',
  invite_code: 'NIR001',
  verification: 'verified',
  advanced_verification: 'none',
  has_fund_password: true,
  created_at: '2025-01-01T00:00:00.000Z',
} as const;

describe('login guard', () => {
  it('sends a visitor on a protected page to login with the page as backpage', async () => {
    vi.stubGlobal('fetch', fetchStub({ area_code: ok([]) }).fn);
    const { router } = renderRoutes(routes, '/pages/assets/deposit/index?coin=USDT');

    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/user/login/login'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('backpage')).toBe('/pages/assets/deposit/index?coin=USDT');
    expect(params.get('backtype')).toBe('1');
    expect(await screen.findByText('Welcome back')).toBeTruthy();
  });

  it('lets a logged-in user open the protected page', async () => {
    setSession('tok', user);
    vi.stubGlobal('fetch', fetchStub({ 'user/has_password': ok({ has_password: true }) }).fn);
    const { router } = renderRoutes(routes, '/pages/settings/security/index');

    expect(await screen.findByText('Login password')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/pages/settings/security/index');
  });

  it('treats a stored token without its user as logged out', async () => {
    window.localStorage.setItem('token', 'orphan');
    vi.stubGlobal('fetch', fetchStub({ area_code: ok([]) }).fn);
    const { router } = renderRoutes(routes, '/pages/promotion/index');
    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/user/login/login'));
  });

  it('leaves public pages open to visitors', async () => {
    vi.stubGlobal('fetch', fetchStub({}).fn);
    const { router } = renderRoutes(routes, '/pages/help-center/center');
    expect(await screen.findByText('Online service')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/pages/help-center/center');
  });

  it('goes to login with a backpage when the session expires (verdant:not-logged-in)', async () => {
    setSession('tok', user);
    vi.stubGlobal('fetch', fetchStub({ area_code: ok([]) }).fn);
    const { router } = renderRoutes(routes, '/pages/settings/security/index');
    expect(await screen.findByText('Login password')).toBeTruthy();

    act(() => {
      window.dispatchEvent(
        new CustomEvent(AppEvent.notLoggedIn, { detail: { message: 'expired', redirect: true } }),
      );
    });

    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/user/login/login'));
    expect(new URLSearchParams(router.state.location.search).get('backpage')).toBe(
      '/pages/settings/security/index',
    );
  });

  it('sends unknown routes Home', async () => {
    const { router } = renderRoutes(routes, '/pages/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
