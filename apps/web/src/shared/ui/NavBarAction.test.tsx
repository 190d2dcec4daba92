import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { NAVBAR_SLOT_ID, NavBarIconButton } from './NavBarAction';

describe('navigation bar icon button', () => {
  it('shows in the bar under its name and runs its action when tapped', async () => {
    const onClick = vi.fn();
    render(
      <>
        <div id={NAVBAR_SLOT_ID} data-testid="bar" />
        <NavBarIconButton label="Bank cards" onClick={onClick}>
          <svg />
        </NavBarIconButton>
      </>,
    );
    const button = await screen.findByRole('button', { name: 'Bank cards' });
    expect(screen.getByTestId('bar').contains(button)).toBe(true);
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
  });
});
