import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './client.ts';

const DIR = join(import.meta.dirname, 'migrations');
/** Any number, the same in every process: serialises migrations across servers. */
const LOCK_KEY = 7_253_140_001;

/**
 * Applies every migrations/NNNN_name.sql not yet applied, in order, each in its own
 * transaction. The same files serve PGlite and PostgreSQL.
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = readdirSync(DIR)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
  return db.tx(async (q) => {
    if (db.kind === 'postgres') await q.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await q.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set(
      (await q.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const f of files) {
      if (done.has(f)) continue;
      const sql = readFileSync(join(DIR, f), 'utf8');
      for (const stmt of splitStatements(sql)) await q.query(stmt);
      await q.query('INSERT INTO schema_migrations (name) VALUES ($1)', [f]);
      applied.push(f);
    }
    return applied;
  });
}

/** Migrations hold plain DDL; statements end with a semicolon at the end of a line. */
function splitStatements(sql: string): string[] {
  return sql
    .replace(/^\s*--.*$/gm, '')
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
}
