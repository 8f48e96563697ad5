import Database from "better-sqlite3";

/**
 * How long a connection waits for another process's write lock before failing with
 * "database is locked". Two processes may open the same file (two `pastor serve` on one
 * DATA_DIR, a CLI reload beside a server); one write transaction lasts well under this.
 */
export const BUSY_TIMEOUT_MS = 30_000;

/** Opens a SQLite file the way both stores want it: WAL, normal sync, foreign keys, a busy wait. */
export function openSqliteFile(file: string): Database.Database {
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  return db;
}

/**
 * Runs `work` in one IMMEDIATE transaction: the write lock is taken at BEGIN, so a transaction
 * that reads before it writes waits for another process's writer instead of failing. (A
 * DEFERRED one that read a snapshot another process has since changed gets SQLITE_BUSY at
 * its first write, without the busy wait.)
 */
export function writeTransaction<T>(db: Database.Database, work: () => T): T {
  return db.transaction(work).immediate();
}
