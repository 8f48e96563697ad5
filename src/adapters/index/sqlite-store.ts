import { mkdirSync } from "node:fs";
import path from "node:path";
import { SqliteIndexFile } from "./sqlite-index-file.js";
import type { IndexedVerse, IndexStore, SourceRecord, StoredVerse, VerseInsert } from "./store.js";

export type { IndexedVerse, SourceRecord, StoredVerse, VerseInsert } from "./store.js";

/**
 * The embedded index: one SQLite file under DATA_DIR holding verses, their context
 * windows, the analysed terms the BM25 index is built from, vectors, the trained dense
 * model and a manifest. WAL mode and small transactions: a `kill -9` loses at most the
 * batch in flight, and a restart resumes where the last committed batch ended.
 */
export const SCHEMA_VERSION = 1;

const TABLES = `
  CREATE TABLE IF NOT EXISTS sources (
    file TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL,
    verse_count INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('partial', 'complete')),
    indexed_at TEXT
  );
  CREATE TABLE IF NOT EXISTS verses (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL REFERENCES sources(file) ON DELETE CASCADE,
    ord INTEGER NOT NULL,
    book TEXT NOT NULL,
    book_name TEXT NOT NULL,
    canonical INTEGER NOT NULL,
    chapter INTEGER NOT NULL,
    verse INTEGER NOT NULL,
    verse_end INTEGER NOT NULL,
    text TEXT NOT NULL,
    context_before TEXT NOT NULL,
    context_after TEXT NOT NULL,
    terms TEXT NOT NULL,
    UNIQUE (source, book, chapter, verse),
    UNIQUE (source, ord)
  );
`;

interface VerseRow {
  id: number;
  source: string;
  ord: number;
  book: string;
  book_name: string;
  canonical: number;
  chapter: number;
  verse: number;
  verse_end: number;
  text: string;
  context_before: string;
  context_after: string;
}

export class SqliteStore extends SqliteIndexFile implements IndexStore {
  readonly kind = "sqlite" as const;

  private constructor(file: string) {
    super(file, { tables: TABLES, version: SCHEMA_VERSION, vectorUnit: "verse_id", unitTable: "verses", modelsStamped: true });
  }

  static open(dataDir: string, fileName = "pastor.sqlite"): SqliteStore {
    mkdirSync(dataDir, { recursive: true });
    return new SqliteStore(path.join(dataDir, fileName));
  }

  listSources(): SourceRecord[] {
    const rows = this.db.prepare("SELECT file, sha256, verse_count, status, indexed_at FROM sources ORDER BY file").all() as {
      file: string;
      sha256: string;
      verse_count: number;
      status: "partial" | "complete";
      indexed_at: string | null;
    }[];
    return rows.map((row) => ({
      file: row.file,
      sha256: row.sha256,
      verseCount: row.verse_count,
      status: row.status,
      indexedAt: row.indexed_at,
    }));
  }

  /** Starts (or restarts) a source: drops whatever it had and records it as partial. */
  beginSource(file: string, sha256: string): void {
    this.transaction(() => {
      this.db.prepare("DELETE FROM sources WHERE file = ?").run(file);
      this.db.prepare("INSERT INTO sources (file, sha256, verse_count, status) VALUES (?, ?, 0, 'partial')").run(file, sha256);
    });
  }

  completeSource(file: string): void {
    this.db
      .prepare(
        "UPDATE sources SET status = 'complete', indexed_at = ?, verse_count = (SELECT COUNT(*) FROM verses WHERE source = ?) WHERE file = ?",
      )
      .run(new Date().toISOString(), file, file);
  }

  removeSource(file: string): number {
    return this.transaction(() => {
      const removed = this.db.prepare("DELETE FROM verses WHERE source = ?").run(file).changes;
      this.db.prepare("DELETE FROM sources WHERE file = ?").run(file);
      return removed;
    });
  }

  /** Verses of a source already committed (a resumed run continues from this ord). */
  committedVerseCount(file: string): number {
    const row = this.db.prepare("SELECT COUNT(*) AS n FROM verses WHERE source = ?").get(file) as { n: number };
    return row.n;
  }

  /** Inserts one batch in one transaction. */
  insertVerses(batch: readonly VerseInsert[]): void {
    const insert = this.db.prepare(`
      INSERT INTO verses (source, ord, book, book_name, canonical, chapter, verse, verse_end, text, context_before, context_after, terms)
      VALUES (@source, @ord, @book, @bookName, @canonical, @chapter, @verse, @verseEnd, @text, @contextBefore, @contextAfter, @terms)`);
    this.transaction(() => {
      for (const row of batch) {
        insert.run({
          source: row.verse.source,
          ord: row.ord,
          book: row.verse.book,
          bookName: row.verse.bookName,
          canonical: row.verse.canonical ? 1 : 0,
          chapter: row.verse.chapter,
          verse: row.verse.verse,
          verseEnd: row.verse.verseEnd,
          text: row.verse.text,
          contextBefore: row.contextBefore,
          contextAfter: row.contextAfter,
          terms: row.terms,
        });
      }
    });
  }

  verseCount(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM verses").get() as { n: number }).n;
  }

  /** Every verse, in a stable order (source, then position in the file). */
  loadVerses(): StoredVerse[] {
    const rows = this.db
      .prepare(
        "SELECT id, source, ord, book, book_name, canonical, chapter, verse, verse_end, text, context_before, context_after FROM verses ORDER BY source, ord",
      )
      .all() as VerseRow[];
    return rows.map(toStoredVerse);
  }

  /** Every verse with its analysed terms, in the same order as `loadVerses` (one query). */
  loadIndexedVerses(): IndexedVerse[] {
    const rows = this.db
      .prepare(
        "SELECT id, source, ord, book, book_name, canonical, chapter, verse, verse_end, text, context_before, context_after, terms FROM verses ORDER BY source, ord",
      )
      .all() as (VerseRow & { terms: string })[];
    return rows.map((row) => ({ ...toStoredVerse(row), terms: row.terms }));
  }

  /** Analysed terms per verse id (space-separated, as written by the analyzer in the manifest). */
  loadTerms(): Map<number, string> {
    const terms = new Map<number, string>();
    for (const row of this.db.prepare("SELECT id, terms FROM verses").iterate() as IterableIterator<{ id: number; terms: string }>) {
      terms.set(row.id, row.terms);
    }
    return terms;
  }

  /** Rewrites the analysed terms of every verse (after an analyzer change), in batches. */
  rewriteTerms(analyzeText: (text: string) => string, batchSize: number): number {
    const ids = this.db.prepare("SELECT id, text FROM verses ORDER BY id").all() as { id: number; text: string }[];
    const update = this.db.prepare("UPDATE verses SET terms = ? WHERE id = ?");
    for (let start = 0; start < ids.length; start += batchSize) {
      this.transaction(() => {
        for (const row of ids.slice(start, start + batchSize)) update.run(analyzeText(row.text), row.id);
      });
    }
    return ids.length;
  }

  /** Rewrites the context windows of one source's verses (after CONTEXT_WINDOW changes). */
  updateContexts(rows: readonly { id: number; contextBefore: string; contextAfter: string }[]): void {
    const update = this.db.prepare("UPDATE verses SET context_before = ?, context_after = ? WHERE id = ?");
    this.transaction(() => {
      for (const row of rows) update.run(row.contextBefore, row.contextAfter, row.id);
    });
  }

  // --- dense side -------------------------------------------------------------------

  /** Ids of non-empty verses that have no vector for `model` yet, in order. */
  versesMissingVectors(model: string): { id: number; text: string; contextBefore: string; contextAfter: string }[] {
    return this.db
      .prepare(
        `SELECT v.id, v.text, v.context_before AS contextBefore, v.context_after AS contextAfter FROM verses v
         LEFT JOIN vectors x ON x.verse_id = v.id AND x.model = ?
         WHERE x.verse_id IS NULL AND v.text <> '' ORDER BY v.source, v.ord`,
      )
      .all(model) as { id: number; text: string; contextBefore: string; contextAfter: string }[];
  }
}

function toStoredVerse(row: VerseRow): StoredVerse {
  return {
    id: row.id,
    source: row.source,
    ord: row.ord,
    book: row.book,
    bookName: row.book_name,
    canonical: row.canonical === 1,
    chapter: row.chapter,
    verse: row.verse,
    verseEnd: row.verse_end,
    text: row.text,
    contextBefore: row.context_before,
    contextAfter: row.context_after,
  };
}
