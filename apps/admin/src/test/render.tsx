import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App } from 'antd';
import type { ReactElement } from 'react';

/** Renders console UI with a fresh query client (no retries: an error shows at once) and antd's App. */
export function renderConsole(ui: ReactElement) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <App>{ui}</App>
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

type Envelope = { type: string; code: number; message: string; data?: unknown };
type Answer = Envelope | ((body: Record<string, unknown>) => Envelope | Promise<Envelope>);

/** A fetch stub answering by API path (the part after /api/); an answer may wait on the test. */
export function fetchStub(answers: Record<string, Answer>) {
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), 'http://localhost').pathname.replace(/^\/api\//, '');
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    calls.push({ path, body });
    const answer = answers[path];
    const envelope =
      typeof answer === 'function'
        ? await answer(body)
        : (answer ?? { type: 'error', code: 1404, message: `no stub for ${path}` });
    return new Response(JSON.stringify(envelope), {
      status: envelope.code === 1 ? 200 : 400,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  return { fn, calls };
}

export const ok = (data: unknown): Envelope => ({ type: 'ok', code: 1, message: 'ok', data });
export const refused = (message: string): Envelope => ({ type: 'error', code: 400, message });
