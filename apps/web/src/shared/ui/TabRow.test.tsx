import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TabRow } from './TabRow';

function Sides() {
  const [side, setSide] = useState<'buy' | 'sell'>('buy');
  return (
    <TabRow
      className="row"
      tabClassName={(s) => `side side--${s}`}
      label="Side"
      options={['buy', 'sell'] as const}
      value={side}
      onChange={setSide}
      labelOf={(s) => (s === 'buy' ? 'Buy' : 'Sell')}
    />
  );
}

describe('tab row', () => {
  it('marks the chosen tab for assistive technology and moves the choice on a tap', () => {
    render(<Sides />);
    expect(screen.getByRole('tablist', { name: 'Side' })).toBeTruthy();
    const buy = screen.getByRole('tab', { name: 'Buy' });
    const sell = screen.getByRole('tab', { name: 'Sell' });
    expect(buy.getAttribute('aria-selected')).toBe('true');
    expect(buy.className).toBe('side side--buy is-active');
    fireEvent.click(sell);
    expect(sell.getAttribute('aria-selected')).toBe('true');
    expect(buy.getAttribute('aria-selected')).toBe('false');
    expect(buy.className).toBe('side side--buy');
  });
});
