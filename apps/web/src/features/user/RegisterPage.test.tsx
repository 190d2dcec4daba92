import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '../../shared/paths';
import { fetchStub, ok, renderPage } from '../../test/render';
import RegisterPage from './RegisterPage';

const areaCodes = ok([
  { area_code: '66', country: 'TH', name: 'Thailand' },
  { area_code: '1', country: 'US', name: 'United States' },
]);

function type(label: RegExp | string, value: string) {
  fireEvent.change(screen.getByPlaceholderText(label), { target: { value } });
}

function submit() {
  fireEvent.click(screen.getByRole('button', { name: 'Register' }));
}

describe('register form', () => {
  it('lists every missing field with the spec messages', async () => {
    const stub = fetchStub({ area_code: areaCodes });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<RegisterPage />, paths.register);

    submit();

    expect(await screen.findByText('Please enter your phone number')).toBeTruthy();
    expect(screen.getByText('Please enter the verification code')).toBeTruthy();
    expect(screen.getByText('Please enter a password')).toBeTruthy();
    expect(screen.getByText('Please confirm the password')).toBeTruthy();
    expect(screen.getByText('Please read and tick to agree to the user agreement')).toBeTruthy();
    expect(stub.calls.some((c) => c.path === 'user/register')).toBe(false);
  });

  it('refuses two different passwords, a short one, and an unticked agreement', async () => {
    vi.stubGlobal('fetch', fetchStub({ area_code: areaCodes }).fn);
    renderPage(<RegisterPage />, paths.register);

    type('Phone number', '812345678');
    type('Enter the code', '123456');
    type('At least 6 characters', 'abc');
    type('Enter the password again', 'abcdef');
    submit();

    expect(await screen.findByText('The password must be at least 6 characters')).toBeTruthy();
    expect(screen.getByText('The two passwords are inconsistent')).toBeTruthy();
    expect(screen.getByText('Please read and tick to agree to the user agreement')).toBeTruthy();
  });

  it('opens the user agreement from its link without ticking the box, and "I agree" ticks it', async () => {
    vi.stubGlobal('fetch', fetchStub({ area_code: areaCodes }).fn);
    renderPage(<RegisterPage />, paths.register);
    const box = screen.getByRole('checkbox') as HTMLInputElement;

    fireEvent.click(screen.getByRole('button', { name: 'User Agreement' }));
    expect(await screen.findByText(/you may lose part or all of the money/)).toBeTruthy();
    expect(box.checked).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'I agree' }));
    await waitFor(() => expect(box.checked).toBe(true));
  });

  it('checks the e-mail address on the E-mail tab', async () => {
    vi.stubGlobal('fetch', fetchStub({ area_code: areaCodes }).fn);
    renderPage(<RegisterPage />, paths.register);

    fireEvent.click(screen.getByText('E-mail'));
    type('E-mail address', 'not-an-address');
    submit();

    expect(await screen.findByText('Please enter a valid e-mail address')).toBeTruthy();
  });

  it('registers with the invitation code from the link and goes Home logged in', async () => {
    const stub = fetchStub({
      area_code: areaCodes,
      'user/register': (body) =>
        ok({
          token: 'new-token',
          user: {
            id: 3,
            nickname: 'user3',
            account: body.get('account'),
            area_code: body.get('area_code'),
            mobile: body.get('account'),
            email: null,
            lang: 'en',
            invite_code: 'X1',
            verification: 'none',
            advanced_verification: 'none',
            has_fund_password: false,
            created_at: '2025-01-01T00:00:00.000Z',
          },
        }),
    });
    vi.stubGlobal('fetch', stub.fn);
    const { router } = renderPage(<RegisterPage />, paths.register, `${paths.register}?invite=FRIEND7`);

    expect((screen.getByPlaceholderText('Enter an invitation code') as HTMLInputElement).value).toBe(
      'FRIEND7',
    );
    type('Phone number', '081 234 5678');
    type('Enter the code', '123456');
    type('At least 6 characters', 'secret1');
    type('Enter the password again', 'secret1');
    fireEvent.click(screen.getByRole('checkbox'));
    submit();

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const call = stub.calls.find((c) => c.path === 'user/register');
    expect(Object.fromEntries(call?.body ?? [])).toEqual({
      type: 'mobile',
      area_code: '66',
      account: '0812345678',
      code: '123456',
      password: 'secret1',
      re_password: 'secret1',
      agree: '1',
      invite_code: 'FRIEND7',
    });
    expect(window.localStorage.getItem('token')).toBe('new-token');
  });
});
