import type Database from "better-sqlite3";
import type { IndexMigration } from "./store.js";

/** What a version-1 file held, now in the version-2 tables. */
export interface LegacyMigration extends IndexMigration {
  vectors: number;
}

/**
 * Moves the version-1 tables of an index file into the version-2 ones (`unit_sources`, `units`,
 * `unit_vectors`), inside the caller's write transaction, and drops them: the Bible's
 * `sources`/`verses` (a verse's book, chapter, window… become its fields) or a collection's
 * `documents`/`chunks` (a document's discipline, slug, title and block become its source's
 * fields; a chunk's page and title its own). Unit ids are kept, so the stored vectors and the
 * trained model stay valid: nothing is re-indexed. Undefined when there is nothing to migrate.
 */
export function migrateLegacyTables(db: Database.Database): LegacyMigration | undefined {
  const has = (table: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
  const migrated = has("verses") ? migrateVerses(db) : has("documents") ? migrateChunks(db) : undefined;
  const modelColumns = db.prepare("PRAGMA table_info(models)").all() as { name: string }[];
  if (!modelColumns.some((column) => column.name === "created_at")) db.exec("ALTER TABLE models ADD COLUMN created_at TEXT");
  return migrated;
}

/** Runs one statement; how many rows it changed. */
function changes(db: Database.Database, sql: string): number {
  return db.prepare(sql).run().changes;
}

function copyVectors(db: Database.Database, unitColumn: string): number {
  const copied = changes(db, `INSERT INTO unit_vectors (unit_id, model, vector) SELECT ${unitColumn}, model, vector FROM vectors`);
  db.exec("DROP TABLE vectors");
  return copied;
}

function migrateVerses(db: Database.Database): LegacyMigration {
  const sources = changes(db, `
    INSERT INTO unit_sources (name, sha256, unit_count, status, indexed_at, fields)
    SELECT file, sha256, verse_count, status, indexed_at, '{}' FROM sources ORDER BY file`);
  const units = changes(db, `
    INSERT INTO units (id, source_id, ord, text, terms, fields)
    SELECT v.id, s.id, v.ord, v.text, v.terms, json_object(
      'book', v.book, 'bookName', v.book_name, 'canonical', json(CASE WHEN v.canonical = 1 THEN 'true' ELSE 'false' END),
      'chapter', v.chapter, 'verse', v.verse, 'verseEnd', v.verse_end,
      'contextBefore', v.context_before, 'contextAfter', v.context_after)
    FROM verses v JOIN unit_sources s ON s.name = v.source ORDER BY v.id`);
  const vectors = copyVectors(db, "verse_id");
  db.exec("DROP TABLE verses; DROP TABLE sources;");
  return { from: "verses", sources, units, vectors };
}

function migrateChunks(db: Database.Database): LegacyMigration {
  const sources = changes(db, `
    INSERT INTO unit_sources (id, name, sha256, unit_count, status, indexed_at, fields)
    SELECT id, source_id, sha256, chunk_count, status, indexed_at,
      CASE WHEN meta_text IS NULL THEN json_object('discipline', discipline, 'slug', slug, 'title', title)
           ELSE json_object('discipline', discipline, 'slug', slug, 'title', title, 'metaText', meta_text) END
    FROM documents ORDER BY id`);
  const units = changes(db, `
    INSERT INTO units (id, source_id, ord, text, terms, fields)
    SELECT id, document_id, chunk, text, terms, json_patch(
      json_object('title', title, 'body', body),
      json_object('page', page, 'pageEnd', page_end))
    FROM chunks ORDER BY id`);
  const vectors = copyVectors(db, "chunk_id");
  db.exec("DROP TABLE chunks; DROP TABLE documents;");
  return { from: "chunks", sources, units, vectors };
}
