import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';

// OWASP's argon2id setting: 19 MiB, 2 passes; strong, and fast enough for a 2-core server. One
// setting for users' login and fund passwords and operators' passwords.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, OPTIONS);

export const verifyPassword = (hash: string, password: string): Promise<boolean> =>
  argon2.verify(hash, password);

// checked when the account does not exist, so the time taken does not tell which accounts do
const DUMMY_HASH = hashPassword(randomBytes(16).toString('hex'));

/** Whether `password` matches `hash`; without a hash (no such account) a dummy takes the same time. */
export async function verifyPasswordOrDummy(
  hash: string | null | undefined,
  password: string,
): Promise<boolean> {
  const good = await verifyPassword(hash ?? (await DUMMY_HASH), password);
  return good && hash != null;
}
