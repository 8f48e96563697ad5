import { documentSource, type DocumentWrite } from "../../src/adapters/index/document-units.js";
import type { UnitStore } from "../../src/adapters/index/store.js";

/** Writes whole documents (each replaces its previous version), as a reload writes a batch. */
export function writeDocuments(store: UnitStore, documents: DocumentWrite | readonly DocumentWrite[]): ReturnType<UnitStore["writeSources"]> {
  return store.writeSources((Array.isArray(documents) ? documents : [documents]).map(documentSource));
}
