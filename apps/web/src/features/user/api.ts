import {
  type AccountType,
  type ForgetBody,
  type LoginBody,
  type LoginResult,
  Paths,
  type RegisterBody,
} from '@verdant/api';
import { api, requestFull } from '../../shared/api';

// Forms show their own button spinner, so their calls skip the global loading toast.
const quiet = { loading: false } as const;

export function login(body: LoginBody): Promise<LoginResult> {
  return api.post<LoginResult>(Paths.login, { ...body }, quiet);
}

export function register(body: RegisterBody): Promise<LoginResult> {
  return api.post<LoginResult>(Paths.register, { ...body }, quiet);
}

/** Step 1 (no password): the server only checks the code. Step 2 sets the new password. */
export function forgetPassword(body: ForgetBody) {
  return requestFull<null>(Paths.forget, { body: { ...body }, ...quiet });
}

export type { AccountType };
