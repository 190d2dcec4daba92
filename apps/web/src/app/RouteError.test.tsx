import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate, useRoutes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from './RouteError';

function Broken(): never {
  throw new Error('page chunk timed out');
}

function Routes() {
  const element = useRoutes([
    { path: '/broken', element: <Broken /> },
    { path: '/fine', element: <p>fine page</p> },
  ]);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <button type="button" onClick={() => navigate('/fine')}>
        go
      </button>
      <RouteErrorBoundary pathname={pathname}>{element}</RouteErrorBoundary>
    </>
  );
}

describe('route error boundary', () => {
  it('shows the error page when a page fails, and the next page when the user goes elsewhere', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // React reports the caught error
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <Routes />
      </MemoryRouter>,
    );
    expect(screen.getByRole('alert').textContent).toContain('This page could not be loaded');
    fireEvent.click(screen.getByText('go'));
    expect(screen.getByText('fine page')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
