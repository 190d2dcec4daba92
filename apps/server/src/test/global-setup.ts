import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDb } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (tarball), or '' on PostgreSQL. */
    pgliteSnapshot: string;
  }
}

/**
 * Migrates one in-memory PGlite once per run and hands its data directory to every test file,
 * which loads it instead of running initdb and every migration again (seconds per file on two
 * cores). On PostgreSQL each harness gets a fresh schema and migrates it, as before.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('pgliteSnapshot', '');
    return;
  }
  const db = await openDb({});
  let blob: Blob;
  try {
    await migrate(db);
    if (!db.dumpDataDir) throw new Error('expected PGlite');
    blob = await db.dumpDataDir();
  } finally {
    await db.close();
  }
  const dir = mkdtempSync(join(tmpdir(), 'verdant-snapshot-'));
  const file = join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
