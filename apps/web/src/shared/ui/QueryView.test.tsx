import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { allOf, QueryView } from './QueryView';

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

  it('keeps showing the data when a refresh fails', () => {
    render(
      <QueryView query={query({ isError: true, error: new Error('Network busy'), data: ['BTC'] })}>
        {rows}
      </QueryView>,
    );
    expect(screen.getByRole('listitem').textContent).toBe('BTC');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows grey rows, not a spinner, while a list loads, and nothing of the data', () => {
    const children = vi.fn(rows);
    const { container } = render(
      <QueryView query={query({ isPending: true })} rows={3}>
        {children}
      </QueryView>,
    );
    expect(children).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status', { name: 'Loading…' }).getAttribute('aria-busy')).toBe('true');
    expect(container.querySelectorAll('.adm-skeleton')).toHaveLength(3);
    expect(container.querySelector('.v-spinner')).toBeNull();
  });
});

describe('allOf: several queries shown as one', () => {
  it('waits for every query, then hands their data over in order', () => {
    const pending = allOf(query({ data: ['BTC'] }), query({ isPending: true }));
    expect(pending.isPending).toBe(true);
    const done = allOf(query({ data: ['BTC'] }), query({ data: ['ETH'] }));
    expect(done.isPending).toBe(false);
    expect(done.data).toEqual([['BTC'], ['ETH']]);
  });

  it('shows the first failure, and "Try again" retries only the queries that failed', () => {
    const okRefetch = vi.fn();
    const failedRefetch = vi.fn();
    render(
      <QueryView
        query={allOf(
          query({ data: ['BTC'], refetch: okRefetch }),
          query({ isError: true, error: new Error('Network busy'), refetch: failedRefetch }),
          query({ isPending: true }),
        )}
      >
        {() => 'loaded'}
      </QueryView>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Network busy');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(failedRefetch).toHaveBeenCalledTimes(1);
    expect(okRefetch).not.toHaveBeenCalled();
  });
});
