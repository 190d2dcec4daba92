import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '../../shared/paths';
import { fetchStub, ok, renderPage } from '../../test/render';
import ForgetPasswordPage from './ForgetPasswordPage';

const areaCodes = ok([{ area_code: '66', country: 'TH', name: 'Thailand' }]);

function type(placeholder: string, value: string) {
  fireEvent.change(screen.getByPlaceholderText(placeholder), { target: { value } });
}

describe('forgot password', () => {
  it('sends the code to the phone number without its spaces, checks it, then asks for the new password', async () => {
    const stub = fetchStub({
      area_code: areaCodes,
      sms_send: ok({ seconds: 60 }),
      'user/forget': ok(null),
    });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<ForgetPasswordPage />, paths.forgetPassword);

    type('Phone number', '81 234 5678');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(stub.calls.some((c) => c.path === 'sms_send')).toBe(true));
    const sent = stub.calls.find((c) => c.path === 'sms_send')!.body;
    expect([sent.get('area_code'), sent.get('mobile'), sent.get('type')]).toEqual([
      '66',
      '812345678',
      'forget',
    ]);

    type('Enter the code', ' 123456 ');
    fireEvent.click(screen.getByRole('button', { name: 'Next step' }));

    expect(await screen.findByText('Your account is verified. Choose a new login password.')).toBeTruthy();
    const checked = stub.calls.find((c) => c.path === 'user/forget')!.body;
    expect(Object.fromEntries(checked)).toMatchObject({
      type: 'mobile',
      area_code: '66',
      account: '812345678',
      code: '123456',
    });
  });

  it('on the E-mail tab starts with an empty field, refuses a bad address and sends to a good one', async () => {
    const stub = fetchStub({ area_code: areaCodes, sms_mail: ok({ seconds: 60 }) });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<ForgetPasswordPage />, paths.forgetPassword);

    type('Phone number', '812345678');
    fireEvent.click(screen.getByText('E-mail'));
    const email = (await screen.findByPlaceholderText('E-mail address')) as HTMLInputElement;
    expect(email.value).toBe('');

    type('E-mail address', 'not-an-address');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Please enter a valid e-mail address')).toBeTruthy();
    expect(stub.calls.some((c) => c.path === 'sms_mail')).toBe(false);

    type('E-mail address', ' me@example.com ');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(stub.calls.some((c) => c.path === 'sms_mail')).toBe(true));
    const sent = stub.calls.find((c) => c.path === 'sms_mail')!.body;
    expect([sent.get('email'), sent.get('type')]).toEqual(['me@example.com', 'forget']);
  });
});
