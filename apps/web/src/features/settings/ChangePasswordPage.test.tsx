import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '../../shared/paths';
import { getSession, setSession } from '../../shared/session';
import { fetchStub, ok, renderPage } from '../../test/render';
import ChangePasswordPage from './ChangePasswordPage';

const user = {
  id: 2,
  nickname: 'Ploy',
  account: '899999999',
  area_code: '66',
  mobile: '899999999',
  email: null,
  lang: 'en',
  invite_code: 'P2',
  verification: 'none',
  advanced_verification: 'none',
  has_fund_password: false,
  created_at: '2025-01-01T00:00:00.000Z',
} as const;

function fill(oldPassword: string, password: string, repeat: string) {
  fireEvent.change(screen.getByPlaceholderText('Enter your current password'), {
    target: { value: oldPassword },
  });
  fireEvent.change(screen.getByPlaceholderText('At least 6 characters'), { target: { value: password } });
  fireEvent.change(screen.getByPlaceholderText('Enter the password again'), { target: { value: repeat } });
  fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
}

describe('change login password', () => {
  it('requires all three fields and matching new passwords', async () => {
    const stub = fetchStub({});
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<ChangePasswordPage />, paths.changePassword);

    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Please enter your current password')).toBeTruthy();
    expect(screen.getByText('Please enter a new password')).toBeTruthy();
    expect(screen.getByText('Please enter the new password again')).toBeTruthy();

    fill('old-secret', 'new-secret', 'new-secreT');
    expect(await screen.findByText('The two passwords are inconsistent')).toBeTruthy();
    expect(stub.calls).toHaveLength(0);
  });

  it('ends the session and goes to login after the change', async () => {
    setSession('tok', user);
    const stub = fetchStub({ 'user/e_pwd': ok(null, 'Password changed, log in again') });
    vi.stubGlobal('fetch', stub.fn);
    const { router } = renderPage(<ChangePasswordPage />, paths.changePassword);

    fill('old-secret', 'new-secret', 'new-secret');

    await waitFor(() => expect(router.state.location.pathname).toBe(paths.login));
    expect(getSession()).toEqual({ token: null, user: null });
    expect(await screen.findByText('Password changed, log in again')).toBeTruthy();
    expect(Object.fromEntries(stub.calls[0]?.body ?? [])).toEqual({
      old_password: 'old-secret',
      password: 'new-secret',
      re_password: 'new-secret',
    });
  });
});
