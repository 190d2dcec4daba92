import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { FundPasscodeItem } from './FundPasscodeItem';
import { SubmitForm } from './SubmitForm';

function renderForm(initial: Record<string, string>, onFinish: (v: unknown) => void) {
  render(
    <SubmitForm initialValues={initial} onFinish={onFinish} pending={false} submit="Save">
      <FundPasscodeItem name="password" label="New" />
      <FundPasscodeItem name="re_password" label="Again" sameAs="password" />
    </SubmitForm>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
}

describe('fund password fields', () => {
  it('refuses a fund password that is not six digits, and sends nothing', async () => {
    const onFinish = vi.fn();
    renderForm({ password: '12', re_password: '12' }, onFinish);
    expect((await screen.findAllByText(en.validation.fundPasswordDigits)).length).toBe(2);
    expect(onFinish).not.toHaveBeenCalled();
  });

  it('refuses a repeat that differs from the first entry', async () => {
    const onFinish = vi.fn();
    renderForm({ password: '123456', re_password: '654321' }, onFinish);
    expect(await screen.findByText(en.validation.inconsistent)).toBeTruthy();
    expect(onFinish).not.toHaveBeenCalled();
  });

  it('sends six digits typed the same twice', async () => {
    const onFinish = vi.fn();
    renderForm({ password: '123456', re_password: '123456' }, onFinish);
    await waitFor(() => expect(onFinish).toHaveBeenCalledWith({ password: '123456', re_password: '123456' }));
  });
});
