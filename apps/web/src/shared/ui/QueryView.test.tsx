import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { QueryView } from './QueryView';

type Q = Parameters<typeof QueryView<string[]>>[0]['query'];
const query = (q: Partial<Q>): Q => ({
  isPending: false,
  isError: false,
  error: null,
  data: undefined,
  refetch: vi.fn(),
  ...q,
});
const rows = (list: string[]) => (
  <ul>
    {list.map((s) => (
      <li key={s}>{s}</li>
    ))}
  </ul>
);

describe('QueryView: a page query in its states', () => {
  it('shows the data once loaded', () => {
    render(
      <QueryView query={query({ data: ['BTC', 'ETH'] })} isEmpty={(l) => l.length === 0}>
        {rows}
      </QueryView>,
    );
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['BTC', 'ETH']);
  });

  it('says "No data" for an empty answer, and nothing of the list', () => {
    render(
      <QueryView query={query({ data: [] })} isEmpty={(l) => l.length === 0}>
        {rows}
      </QueryView>,
    );
    expect(screen.getByText('No data')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it("shows the server's message and tries again on request", () => {
    const refetch = vi.fn();
    render(
      <QueryView query={query({ isError: true, error: new Error('Please log in'), refetch })}>
        {rows}
      </QueryView>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Please log in');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('renders nothing of the data while loading', () => {
    const children = vi.fn(rows);
    render(<QueryView query={query({ isPending: true })}>{children}</QueryView>);
    expect(children).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
