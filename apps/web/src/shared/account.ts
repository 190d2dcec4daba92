import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { Paths, type UserCenter } from '@verdant/api';
import { api } from './api';
import { clearSession, setUser } from './session';

/** Query keys of the signed-in user; every user query sits under ['user'] so logout drops them all. */
export const userKeys = {
  all: ['user'] as const,
  center: () => ['user', 'center'] as const,
  hasFundPassword: () => ['user', 'has-password'] as const,
};

export function userCenterQuery() {
  return queryOptions({
    queryKey: userKeys.center(),
    queryFn: async ({ signal }) => {
      const user = await api.get<UserCenter>(Paths.center, undefined, { signal });
      setUser(user); // the side menu and guards read the stored copy
      return user;
    },
  });
}

export function hasFundPasswordQuery() {
  return queryOptions({
    queryKey: userKeys.hasFundPassword(),
    queryFn: async ({ signal }) =>
      (await api.post<{ has_password: boolean }>(Paths.hasPassword, undefined, { signal, loading: false }))
        .has_password,
  });
}

/** Ends the session on the server (best effort) and on this device. */
export async function logout(queryClient: QueryClient): Promise<void> {
  try {
    await api.post<null>(Paths.logout, undefined, { onNotLoggedIn: 'clear', toastError: false });
  } catch {
    // an expired or unreachable session still ends here
  }
  clearSession();
  queryClient.removeQueries({ queryKey: userKeys.all });
}
