/** Every answer of /api is one of these three shapes (ARCHITECTURE: API conventions). */
export interface ApiOk<T> {
  type: 'ok';
  code: 1;
  message: string;
  data: T;
}
export interface ApiFailure {
  type: 'error';
  code: number;
  message: string;
  /** Which field the message is about, when it is about one. */
  field?: string;
}
export interface ApiNotLoggedIn {
  type: '999';
  code: 999;
  message: string;
}
export type ApiEnvelope<T> = ApiOk<T> | ApiFailure | ApiNotLoggedIn;

/** Spec §7: a response is successful when its type is ok or its code is 1. */
export function isOk<T>(e: ApiEnvelope<T>): e is ApiOk<T> {
  return e.type === 'ok' || e.code === 1;
}
export function isNotLoggedIn(e: { type?: unknown; code?: unknown }): boolean {
  return e.type === '999' || e.code === 999;
}
