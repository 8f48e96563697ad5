/**
 * A separate process writing one collection store (used by test/sqlite.concurrency.test.ts):
 * `node --import tsx collection-writer.ts DATA_DIR NAME WRITER COUNT` upserts COUNT documents
 * of its own and, after each, reads and writes the manifest in one transaction; exits 1 naming
 * the first error.
 */
import { SqliteUnitStore } from "../../src/adapters/index/sqlite-unit-store.js";
import { writeDocuments } from "./documents.js";

const [dataDir, name, writer, count] = process.argv.slice(2) as [string, string, string, string];
const store = SqliteUnitStore.collection(dataDir, name);
try {
  for (let i = 0; i < Number(count); i++) {
    const text = `documento ${writer} ${i}`;
    writeDocuments(store, {
      sourceId: `${writer}/${i % 25}.md`,
      discipline: writer,
      slug: `${writer}-${i % 25}`,
      title: text,
      sha256: String(i),
      chunks: [0, 1, 2].map((chunk) => ({ chunk, title: text, text: `${text} ${chunk}`, body: text, terms: text })),
    });
    // A read, then a write, in one transaction (how a caller counts before it records).
    store.transaction(() => {
      const seen = store.listSources().length;
      store.setManifest(`writer_${writer}`, String(i));
      store.setManifest(`seen_by_${writer}`, String(seen));
    });
  }
  console.log("ok");
} catch (error) {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  process.exitCode = 1;
} finally {
  store.close();
}
