/**
 * Reads the OpenBible.info cross-reference file from disk; parsing is core's
 * (core/bible/cross-references.ts).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { parseCrossReferences, type CrossReferenceIndex } from "../../core/bible/cross-references.js";
import { findProjectRoot } from "../../project-root.js";

/** Path of the shipped file, relative to the project root. */
export const CROSS_REFERENCES_FILE = "resources/openbible/cross-references.tsv.gz";

const gunzipAsync = promisify(gunzip);

/**
 * Loads the shipped cross references (default: resources/openbible/cross-references.tsv.gz
 * under the project root). A path ending in `.gz` is gunzipped; any other is read as UTF-8.
 * Either format accepted by `parseCrossReferenceColumns` works, so the original
 * `cross_references.txt` can be loaded too.
 */
export async function loadCrossReferences(path?: string, options: { minVotes?: number } = {}): Promise<CrossReferenceIndex> {
  const file = path ?? join(findProjectRoot(), CROSS_REFERENCES_FILE);
  const raw = await readFile(file);
  const text = file.endsWith(".gz") ? (await gunzipAsync(raw)).toString("utf8") : raw.toString("utf8");
  return parseCrossReferences(text, options);
}
