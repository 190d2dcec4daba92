import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '../../shared/paths';
import { getSession } from '../../shared/session';
import { fetchStub, ok, renderPage } from '../../test/render';
import LoginPage from './LoginPage';

const user = {
  id: 5,
  nickname: 'Som',
  account: 'som@example.com',
  area_code: null,
  mobile: null,
  email: 'som@example.com',
  lang: 'en',
  invite_code: 'SOM5',
  verification: 'none',
  advanced_verification: 'none',
  has_fund_password: false,
  created_at: '2025-01-01T00:00:00.000Z',
};

function fillEmailLogin(email: string, password: string) {
  fireEvent.click(screen.getByText('E-mail'));
  fireEvent.change(screen.getByPlaceholderText('E-mail address'), { target: { value: email } });
  fireEvent.change(screen.getByPlaceholderText('Enter your password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('login page', () => {
  it('stores the session and returns to the backpage', async () => {
    const stub = fetchStub({ area_code: ok([]), 'user/login': ok({ token: 'tok-5', user }) });
    vi.stubGlobal('fetch', stub.fn);
    const back = encodeURIComponent('/pages/assets/deposit/index?coin=USDT');
    const { router } = renderPage(<LoginPage />, paths.login, `${paths.login}?backpage=${back}&backtype=1`);

    fillEmailLogin('som@example.com', 'secret1');

    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/assets/deposit/index'));
    expect(router.state.location.search).toBe('?coin=USDT');
    expect(getSession()).toEqual({ token: 'tok-5', user });
    expect(await screen.findByText('Login success')).toBeTruthy();
    const call = stub.calls.find((c) => c.path === 'user/login');
    expect(Object.fromEntries(call?.body ?? [])).toEqual({ account: 'som@example.com', password: 'secret1' });
  });

  it('goes Home without a backpage', async () => {
    vi.stubGlobal('fetch', fetchStub({ area_code: ok([]), 'user/login': ok({ token: 't', user }) }).fn);
    const { router } = renderPage(<LoginPage />, paths.login);
    fillEmailLogin('som@example.com', 'secret1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('shows the server message and stays when the password is wrong', async () => {
    vi.stubGlobal(
      'fetch',
      fetchStub({
        area_code: ok([]),
        'user/login': { type: 'error', code: 2103, message: 'Wrong account or password' },
      }).fn,
    );
    const { router } = renderPage(<LoginPage />, paths.login);
    fillEmailLogin('som@example.com', 'nope');

    expect(await screen.findByText('Wrong account or password')).toBeTruthy();
    expect(router.state.location.pathname).toBe(paths.login);
    expect(getSession().token).toBeNull();
  });

  it('asks for the phone number and password before calling the server', async () => {
    const stub = fetchStub({ area_code: ok([]) });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<LoginPage />, paths.login);
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByText('Please enter your phone number')).toBeTruthy();
    expect(screen.getByText('Please enter a password')).toBeTruthy();
    expect(stub.calls.some((c) => c.path === 'user/login')).toBe(false);
  });
});
