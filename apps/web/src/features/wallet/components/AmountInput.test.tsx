import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import { AmountField } from './AmountInput';

function Field({ available, max }: { available: string; max?: string }) {
  const [value, setValue] = useState('');
  return (
    <AmountField
      id="amount"
      label="Amount"
      value={value}
      onChange={setValue}
      decimals={2}
      symbol="USDT"
      available={available}
      max={max}
    />
  );
}

describe('amount field', () => {
  it('says what is available and fills in the most that can be sent', () => {
    render(<Field available="1234.567" max="1200.567" />);
    expect(
      screen.getByText(
        en.wallet.availableAmount.replace('{{amount}}', '1,234.56').replace('{{symbol}}', 'USDT'),
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.wallet.all }));
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('1200.56');
  });

  it('keeps "all" off when nothing is available, and drops digits past the decimals', () => {
    render(<Field available="0" />);
    expect((screen.getByRole('button', { name: en.wallet.all }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '3.14159' } });
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('3.14');
  });
});
