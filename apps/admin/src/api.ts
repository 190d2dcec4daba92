import { API_BASE, type ApiEnvelope, isNotLoggedIn, isOk, LANG_HEADER } from '@verdant/api';
import i18next from 'i18next';
import { currentLang } from './i18n';
import { clearSession, getToken } from './session';

/** A refused or failed request; `message` is already in the operator's language. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    /** The envelope's code: 999 when the session is gone, HTTP-like codes otherwise. */
    readonly code: number,
    readonly status: number,
    /** The form field the message is about, when the server names one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>;

/** Set by the shell: where a 999 answer sends the operator (to login, keeping the route). */
let onExpired: (() => void) | null = null;
export function setOnExpired(fn: (() => void) | null): void {
  onExpired = fn;
}

function url(path: string, query?: Query): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    qs.append(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  const s = qs.toString();
  return `${API_BASE}/${path}${s ? `?${s}` : ''}`;
}

async function send<T>(
  method: 'GET' | 'POST',
  path: string,
  query?: Query,
  body?: BodyInit,
  type?: string,
  tokenOverride?: string,
) {
  const headers: Record<string, string> = { [LANG_HEADER]: currentLang() };
  const token = tokenOverride ?? getToken();
  if (token) headers.authorization = token;
  if (type) headers['content-type'] = type;
  let res: Response;
  try {
    res = await fetch(url(path, query), { method, headers, ...(body === undefined ? {} : { body }) });
  } catch {
    throw new ApiError(i18next.t('common.networkError'), 0, 0);
  }
  let env: ApiEnvelope<T> & { field?: string };
  try {
    env = (await res.json()) as ApiEnvelope<T> & { field?: string };
  } catch {
    throw new ApiError(i18next.t('common.serverError'), res.status, res.status);
  }
  if (isNotLoggedIn(env)) {
    // Not for the sign-in steps: their 999 is a message to show on the login form.
    if (tokenOverride === undefined && !path.startsWith('admin/login')) {
      clearSession();
      onExpired?.();
    }
    throw new ApiError(env.message, 999, res.status);
  }
  if (!isOk(env)) throw new ApiError(env.message, env.code, res.status, env.field);
  return env.data;
}

/**
 * The operator API client: paths relative to /api (e.g. 'admin/users'); sends the token and the
 * language, unwraps the envelope, throws ApiError with the server's localized message.
 */
export const api = {
  get<T>(path: string, query?: Query): Promise<T> {
    return send<T>('GET', path, query);
  },
  post<T>(path: string, body?: Record<string, unknown>): Promise<T> {
    return send<T>('POST', path, undefined, JSON.stringify(body ?? {}), 'application/json');
  },
  upload<T>(path: string, file: Blob, field = 'file'): Promise<T> {
    const form = new FormData();
    form.append(field, file);
    return send<T>('POST', path, undefined, form);
  },
  /** A sign-in step (password change, TOTP) with the not yet ready session's token. */
  postWith<T>(token: string, path: string, body?: Record<string, unknown>): Promise<T> {
    return send<T>('POST', path, undefined, JSON.stringify(body ?? {}), 'application/json', token);
  },
};

/**
 * An object URL for a private picture (voucher, identity photo) the operator API serves, e.g.
 * '/api/admin/upload/<name>': fetched with the token, since an <img> cannot send it.
 */
export async function fetchBlobUrl(path: string): Promise<string> {
  const headers: Record<string, string> = { [LANG_HEADER]: currentLang() };
  const token = getToken();
  if (token) headers.authorization = token;
  const res = await fetch(path, { headers });
  if (!res.ok) throw new ApiError(i18next.t('common.serverError'), res.status, res.status);
  return URL.createObjectURL(await res.blob());
}
