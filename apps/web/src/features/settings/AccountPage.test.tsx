import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { formatPhone } from '../../shared/format';
import { paths } from '../../shared/paths';
import { getSession, setSession } from '../../shared/session';
import { fetchStub, ok, renderPage } from '../../test/render';
import AccountPage from './AccountPage';

// an account registered by e-mail: its phone is the contact still to bind
const user = {
  id: 7,
  nickname: 'Mali',
  account: 'mali@example.com',
  area_code: null,
  mobile: null,
  email: 'mali@example.com',
  lang: 'en',
  invite_code: 'ABC123',
  verification: 'none',
  advanced_verification: 'none',
  has_fund_password: false,
  created_at: '2025-01-01T00:00:00.000Z',
} as const;
const bound = { ...user, area_code: '66', mobile: '898765432' };

const areaCodes = ok([{ area_code: '66', country: 'TH', name: 'Thailand' }]);

async function openPhoneSheet() {
  const row = (await screen.findByText(en.account.phone)).closest('.adm-list-item');
  if (!(row instanceof HTMLElement)) throw new Error('no phone row');
  expect(within(row).getByText(en.account.bindNow)).toBeTruthy();
  fireEvent.click(row);
  return screen.findByText(en.account.bindPhone);
}

describe('account page: binding the second contact', () => {
  it('sends a bind code to the new phone, binds it with the code and shows it', async () => {
    setSession('tok', user);
    let current: typeof user | typeof bound = user;
    const stub = fetchStub({
      'user/center': () => ok(current),
      area_code: areaCodes,
      sms_send: ok({ resend_in: 60 }, 'Code sent'),
      'set/sms_other_mail': () => {
        current = bound;
        return ok(bound, 'Binding successful');
      },
    });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<AccountPage />, paths.account);

    await openPhoneSheet();
    fireEvent.change(screen.getByPlaceholderText(en.auth.phonePlaceholder), {
      target: { value: '89 876 5432' },
    });
    fireEvent.click(screen.getByRole('button', { name: en.auth.sendCode }));
    await waitFor(() => expect(stub.calls.some((c) => c.path === 'sms_send')).toBe(true));
    expect(Object.fromEntries(stub.calls.find((c) => c.path === 'sms_send')?.body ?? [])).toEqual({
      area_code: '66',
      mobile: '898765432',
      type: 'bind',
    });

    fireEvent.change(screen.getByPlaceholderText(en.auth.codePlaceholder), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: en.account.bindSubmit }));

    expect(await screen.findByText('Binding successful')).toBeTruthy();
    expect(Object.fromEntries(stub.calls.find((c) => c.path === 'set/sms_other_mail')?.body ?? [])).toEqual({
      type: 'mobile',
      area_code: '66',
      account: '898765432',
      code: '123456',
    });
    // the page now shows the bound phone instead of "Not linked", and so does the stored user
    expect(await screen.findByText(formatPhone('66', '898765432'))).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(en.account.bindNow)).toBeNull());
    expect(getSession().user?.mobile).toBe('898765432');
  });

  it('shows a wrong code under the code field and keeps the sheet open', async () => {
    setSession('tok', user);
    vi.stubGlobal(
      'fetch',
      fetchStub({
        'user/center': ok(user),
        area_code: areaCodes,
        'set/sms_other_mail': {
          type: 'error',
          code: 2002,
          message: 'The verification code is wrong',
          field: 'code',
        },
      }).fn,
    );
    renderPage(<AccountPage />, paths.account);

    await openPhoneSheet();
    fireEvent.click(screen.getByRole('button', { name: en.account.bindSubmit }));
    expect(await screen.findByText(en.validation.phoneRequired)).toBeTruthy();

    fireEvent.change(screen.getByPlaceholderText(en.auth.phonePlaceholder), {
      target: { value: '898765432' },
    });
    fireEvent.change(screen.getByPlaceholderText(en.auth.codePlaceholder), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: en.account.bindSubmit }));
    expect(await screen.findByText('The verification code is wrong')).toBeTruthy();
    expect(screen.getByText(en.account.bindPhone)).toBeTruthy();
    expect(getSession().user?.mobile).toBeNull();
  });

  it('binds an e-mail address to a phone account the same way', async () => {
    const phoneUser = { ...bound, account: '898765432', email: null };
    setSession('tok', phoneUser);
    const withEmail = { ...phoneUser, email: 'ploy@example.com' };
    let current: typeof phoneUser | typeof withEmail = phoneUser;
    const stub = fetchStub({
      'user/center': () => ok(current),
      sms_mail: ok({ resend_in: 60 }, 'Code sent'),
      'set/sms_other_mail': () => {
        current = withEmail;
        return ok(withEmail, 'Binding successful');
      },
    });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<AccountPage />, paths.account);

    const row = (await screen.findByText(en.account.email)).closest('.adm-list-item');
    if (!(row instanceof HTMLElement)) throw new Error('no e-mail row');
    fireEvent.click(row);
    await screen.findByText(en.account.bindEmail);
    fireEvent.change(screen.getByPlaceholderText(en.auth.emailPlaceholder), {
      target: { value: ' ploy@example.com ' },
    });
    fireEvent.click(screen.getByRole('button', { name: en.auth.sendCode }));
    await waitFor(() => expect(stub.calls.some((c) => c.path === 'sms_mail')).toBe(true));
    expect(Object.fromEntries(stub.calls.find((c) => c.path === 'sms_mail')?.body ?? [])).toEqual({
      email: 'ploy@example.com',
      type: 'bind',
    });
    fireEvent.change(screen.getByPlaceholderText(en.auth.codePlaceholder), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: en.account.bindSubmit }));
    expect(await screen.findByText('Binding successful')).toBeTruthy();
    expect(Object.fromEntries(stub.calls.find((c) => c.path === 'set/sms_other_mail')?.body ?? [])).toEqual({
      type: 'email',
      account: 'ploy@example.com',
      code: '654321',
    });
    expect(await screen.findByText('pl***@example.com')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(en.account.bindNow)).toBeNull());
  });

  it('offers nothing to bind for a contact already bound', async () => {
    setSession('tok', bound);
    vi.stubGlobal('fetch', fetchStub({ 'user/center': ok(bound) }).fn);
    renderPage(<AccountPage />, paths.account);
    expect(await screen.findByText(formatPhone('66', '898765432'))).toBeTruthy();
    expect(screen.queryByText(en.account.bindNow)).toBeNull();
  });
});
