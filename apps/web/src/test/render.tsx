import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { createQueryClient } from '../app/query-client';

/** Renders routes in memory, with the app's query client; returns the router to inspect the location. */
export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const queryClient = createQueryClient();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}

/** One page at a path, with a stand-in for every other route so navigation is visible. */
export function renderPage(page: ReactElement, path: string, initialPath = path) {
  return renderRoutes(
    [
      { path, element: page },
      { path: '*', element: <p data-testid="elsewhere">elsewhere</p> },
    ],
    initialPath,
  );
}

type Envelope = { type: string; code: number; message: string; data?: unknown; field?: string };

/** A fetch stub answering by API path (the part after /api/). */
export function fetchStub(answers: Record<string, Envelope | ((body: URLSearchParams) => Envelope)>) {
  const calls: { path: string; body: URLSearchParams; headers: Headers }[] = [];
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/api\//, '');
    const body = new URLSearchParams(
      typeof init?.body === 'string' ? init.body : (init?.body as URLSearchParams),
    );
    calls.push({ path, body, headers: new Headers(init?.headers) });
    const answer = answers[path];
    const envelope =
      typeof answer === 'function'
        ? answer(body)
        : (answer ?? { type: 'error', code: 1404, message: `no stub for ${path}` });
    const status = envelope.code === 1 ? 200 : envelope.code === 999 ? 401 : 400;
    return new Response(JSON.stringify(envelope), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  return { fn, calls };
}

export const ok = (data: unknown, message = 'ok'): Envelope => ({ type: 'ok', code: 1, message, data });
