import { randomBytes } from 'node:crypto';
import type { Db } from './client.ts';

/** Returns the named secret, creating it on first use; concurrent starters agree on one value. */
export async function serverSecret(db: Db, name: string): Promise<string> {
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32).toString('base64url'),
  ]);
  const [row] = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
  if (!row) throw new Error(`secret ${name} missing`);
  return row.value;
}
