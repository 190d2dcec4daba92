import { API_BASE, type ApiEnvelope, isNotLoggedIn, isOk, LANG_HEADER } from '@verdant/api';
import i18next from 'i18next';
import { takeEarlyResponse } from './early-requests';
import { AppEvent, type NotLoggedInDetail } from './events';
import { currentLang } from './i18n';
import { clearSession, getToken } from './session';
import { showToast, type ToastHandle } from './toast';

/** Spec §7/§9: request, upload and download timeout. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** Spec §9 "loading indicator time": quick answers never flash a spinner; it appears past 1 s. */
export const LOADING_DELAY_MS = 1_000;

type Primitive = string | number | boolean | null | undefined;
export type Params = Record<string, Primitive>;
export type Body = Params | FormData | Record<string, unknown>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Query string. */
  params?: Params;
  /** Form-encoded by default; FormData goes multipart; nested values (or json: true) go as JSON. */
  body?: Body;
  json?: boolean;
  /** Loading toast once the request has run LOADING_DELAY_MS. Default: on for everything but GET. */
  loading?: boolean;
  /** Toast the server's message on failure (or ERROR without one). Default: on. */
  toastError?: boolean;
  /** A 999 answer clears the session; 'redirect' (default) also sends the user to login. */
  onNotLoggedIn?: 'redirect' | 'clear';
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type ApiErrorKind = 'server' | 'not-logged-in' | 'network' | 'timeout';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    readonly code: number,
    readonly status: number,
    readonly field?: string,
  ) {
    super(message);
  }
}

export interface ApiResult<T> {
  data: T;
  message: string;
}

function isPrimitive(v: unknown): v is Primitive {
  return v === null || v === undefined || ['string', 'number', 'boolean'].includes(typeof v);
}

function encodeParams(params: Params): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    out.append(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  return out;
}

function buildBody(body: Body | undefined, json: boolean | undefined): { body?: BodyInit; type?: string } {
  if (body === undefined) return {};
  if (body instanceof FormData) return { body }; // the browser sets the multipart boundary
  const values = Object.values(body);
  if (json || !values.every(isPrimitive)) {
    return { body: JSON.stringify(body), type: 'application/json' };
  }
  return { body: encodeParams(body as Params), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
}

function isEnvelope(v: unknown): v is ApiEnvelope<unknown> {
  return Boolean(v && typeof v === 'object' && ('type' in v || 'code' in v));
}

// One loading toast for all requests in flight.
let loadingCount = 0;
let loadingToast: ToastHandle | null = null;

function startLoading(): () => void {
  let shown = false;
  const timer = setTimeout(() => {
    shown = true;
    loadingCount++;
    loadingToast ??= showToast({
      icon: 'loading',
      content: i18next.t('common.loading'),
      duration: 0,
      maskClickable: false,
    });
  }, LOADING_DELAY_MS);
  return () => {
    clearTimeout(timer);
    if (!shown) return;
    loadingCount--;
    if (loadingCount === 0) {
      loadingToast?.close();
      loadingToast = null;
    }
  };
}

function fail(error: ApiError, toast: boolean): never {
  if (toast) showToast({ content: error.message });
  throw error;
}

/**
 * A signal that aborts after `ms` or when the caller's own signal does; `timedOut()` tells which.
 * Requests, uploads and downloads (spec §7: 60 s each) all go through it. Call done() at the end.
 */
export function withTimeout(callerSignal: AbortSignal | undefined, ms = REQUEST_TIMEOUT_MS) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ms);
  const onCallerAbort = () => controller.abort();
  if (callerSignal?.aborted) controller.abort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/** The promise, or its rejection with the signal's reason once the signal aborts. */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Calls /api/<path>, unwraps the envelope and returns data with the server's message. */
export async function requestFull<T>(path: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
  const method = options.method ?? 'POST';
  const toastError = options.toastError ?? true;
  const query = options.params ? encodeParams(options.params).toString() : '';
  const url = `${API_BASE}/${path.replace(/^\/+/, '')}${query ? `?${query}` : ''}`;

  const headers: Record<string, string> = { [LANG_HEADER]: currentLang(), Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = token;
  const { body, type } = method === 'GET' ? {} : buildBody(options.body, options.json);
  if (type) headers['Content-Type'] = type;

  const deadline = withTimeout(options.signal, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const stopLoading = (options.loading ?? method !== 'GET') ? startLoading() : () => {};

  let status = 0;
  let payload: unknown;
  try {
    const ask = () => fetch(url, { method, headers, body, signal: deadline.signal });
    // the page the app opened on: its first answer may have been asked for already (src/early.ts)
    const early =
      body === undefined ? takeEarlyResponse(method, url, headers[LANG_HEADER] ?? '', token) : null;
    const res = await (early ? abortable(early.catch(ask), deadline.signal) : ask());
    status = res.status;
    const text = await res.text();
    try {
      payload = text ? JSON.parse(text) : undefined;
    } catch {
      payload = undefined;
    }
  } catch (e) {
    stopLoading();
    // A caller that cancels (a page left, a query superseded) gets its own abort back, silently.
    if (options.signal?.aborted) throw e;
    const error = deadline.timedOut()
      ? new ApiError(i18next.t('common.timeout'), 'timeout', 0, status)
      : new ApiError(i18next.t('common.error'), 'network', 0, status);
    return fail(error, toastError);
  } finally {
    deadline.done();
  }
  stopLoading();

  if (!isEnvelope(payload)) {
    return fail(new ApiError(i18next.t('common.error'), 'network', 0, status), toastError);
  }
  if (isOk(payload)) {
    return { data: payload.data as T, message: payload.message ?? '' };
  }
  const message = payload.message || i18next.t('common.error');
  if (isNotLoggedIn(payload)) {
    const redirect = (options.onNotLoggedIn ?? 'redirect') === 'redirect';
    clearSession();
    if (redirect) showToast({ content: message });
    const detail: NotLoggedInDetail = { message, redirect };
    window.dispatchEvent(new CustomEvent(AppEvent.notLoggedIn, { detail }));
    throw new ApiError(message, 'not-logged-in', 999, status);
  }
  const field = 'field' in payload ? payload.field : undefined;
  return fail(new ApiError(message, 'server', payload.code, status, field), toastError);
}

export async function request<T>(path: string, options?: RequestOptions): Promise<T> {
  return (await requestFull<T>(path, options)).data;
}

export const api = {
  get: <T>(path: string, params?: Params, options?: Omit<RequestOptions, 'method' | 'params'>) =>
    request<T>(path, { ...options, method: 'GET', params }),
  post: <T>(path: string, body?: Body, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: Body, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'PUT', body }),
};
