import type { ChromaGetResult, ChromaMetadata, ChromaRecords } from "./chroma-client.js";
import { PLACEHOLDER } from "./chroma-space.js";
import type { IndexMigration } from "./store.js";

/** A version-1 space as the migration reads and rewrites it (ChromaUnitStore gives these, over its own requests). */
export interface LegacySpace {
  /** The version-1 units collection: `verses` (the Bible's space) or `chunks` (a document collection's). */
  legacyUnits: "verses" | "chunks";
  /** Every record of the version-1 units collection, or undefined when the space has none. */
  readLegacyUnits(): Promise<ChromaGetResult | undefined>;
  /** The meta records of one kind (`source`, `document`). */
  metaRecords(kind: string): Promise<ChromaMetadata[]>;
  putSources(records: ChromaMetadata[]): Promise<void>;
  writeUnits(records: ChromaRecords): Promise<void>;
  /** Deletes the version-1 meta records of a kind and the version-1 units collection. */
  dropLegacy(kind: string): Promise<void>;
}

const VERSE_FIELDS = ["book", "bookName", "canonical", "chapter", "verse", "verseEnd", "contextBefore", "contextAfter"] as const;
const CHUNK_FIELDS = ["title", "body", "page", "pageEnd"] as const;

function pick(metadata: ChromaMetadata, keys: readonly string[]): Record<string, unknown> {
  const present = keys.filter((key) => metadata[key] !== undefined && metadata[key] !== null);
  return Object.fromEntries(present.map((key) => [key, metadata[key]]));
}

/**
 * Moves a space of the version-1 layout (the Bible's `<prefix>_verses` with `source:<file>`
 * records; a collection's `<prefix>.<name>.chunks` with `doc:<id>` records) to the units layout:
 * every source record, then every unit with the same id (so the vectors stay valid and nothing
 * is re-embedded), then the old records go. Written before anything is deleted, and idempotent:
 * a replica that stops half-way (or two replicas at once) leave a space the next call finishes.
 * Undefined when the space has no version-1 data.
 */
export async function migrateLegacyChroma(space: LegacySpace): Promise<IndexMigration | undefined> {
  const legacy = await space.readLegacyUnits();
  if (!legacy) return undefined;
  const bible = space.legacyUnits === "verses";
  const kind = bible ? "source" : "document";
  const records = await space.metaRecords(kind);
  const sourceOfSlot = new Map<number, string>();
  await space.putSources(
    records.map((record) => {
      const id = String(bible ? record.file : record.sourceId);
      sourceOfSlot.set(Number(record.slot), id);
      const fields = bible ? {} : pick(record, ["discipline", "slug", "title", "metaText"]);
      return {
        kind: "unit-source",
        id,
        sha256: String(record.sha256 ?? ""),
        slot: Number(record.slot),
        status: record.status === "complete" ? "complete" : "partial",
        unitCount: Number(bible ? record.verseCount : record.chunkCount) || 0,
        indexedAt: String(record.indexedAt ?? ""),
        fields: JSON.stringify(fields),
      };
    }),
  );
  const units: ChromaRecords = { ids: [], embeddings: [], metadatas: [], documents: [] };
  legacy.ids.forEach((id, i) => {
    const metadata = legacy.metadatas[i];
    if (!metadata) return;
    const slot = Number(metadata.slot);
    const source = bible ? String(metadata.source) : sourceOfSlot.get(slot);
    if (source === undefined) return; // a chunk of a document whose record is gone: nothing serves it
    units.ids.push(id);
    units.embeddings!.push(PLACEHOLDER);
    units.documents!.push(legacy.documents[i] ?? "");
    units.metadatas!.push({
      slot,
      ord: Number(bible ? metadata.ord : metadata.chunk),
      source,
      terms: String(metadata.terms ?? ""),
      fields: JSON.stringify(pick(metadata, bible ? VERSE_FIELDS : CHUNK_FIELDS)),
    });
  });
  await space.writeUnits(units);
  await space.dropLegacy(kind);
  return { from: space.legacyUnits, sources: records.length, units: units.ids.length };
}
