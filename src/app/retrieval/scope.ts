/**
 * Loads what the out-of-scope gate reads from resources/scope/ (the Portuguese dictionary's
 * stems, WordNet topics of OpenWordNet-PT lemmas, the fitted classifier) and judges a
 * question against a collection's vocabulary and its retrieved passages.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { ANALYZER_VERSION } from "../../core/analysis/index.js";
import type { ScopeLexicons } from "../../core/retrieval/scope/features.js";
import type { ScopeModel } from "../../core/retrieval/scope/gate.js";
import { parseTopicRows, TopicLexicon } from "../../core/retrieval/scope/topics.js";
import { TermDictionary } from "../../core/retrieval/term-dictionary.js";
import { findProjectRoot } from "../../project-root.js";

export const SCOPE_DIR = "resources/scope";

export interface ScopeResources {
  lexicons: ScopeLexicons;
  model: ScopeModel;
}

let loading: Promise<ScopeResources> | undefined;

/** Gives this process the gate's data read another way (from the retrieval aids' snapshot), unless it has them already. */
export function provideScopeResources(resources: ScopeResources): void {
  loading ??= Promise.resolve(resources);
}

/** The gate's data, read once per process. */
export function loadScopeResources(dir = join(findProjectRoot(), SCOPE_DIR)): Promise<ScopeResources> {
  if (dir !== join(findProjectRoot(), SCOPE_DIR)) return readScopeResources(dir);
  loading ??= readScopeResources(dir);
  return loading;
}

/** The files of the gate's data, as read from disk. */
export interface ScopeFiles {
  dir: string;
  stemsGz: Buffer;
  topicsGz: Buffer;
  modelJson: string;
}

export async function readScopeFiles(dir = join(findProjectRoot(), SCOPE_DIR)): Promise<ScopeFiles> {
  const [stemsGz, topicsGz, modelJson] = await Promise.all([
    readFile(join(dir, "pt-br-stems.txt.gz")),
    readFile(join(dir, "wordnet-pt-topics.tsv.gz")),
    readFile(join(dir, "model.json"), "utf8"),
  ]);
  return { dir, stemsGz, topicsGz, modelJson };
}

async function readScopeResources(dir: string): Promise<ScopeResources> {
  const files = await readScopeFiles(dir);
  return scopeResources(files, scopeStems(files), new TopicLexicon(parseTopicRows(gunzipSync(files.topicsGz).toString("utf8"))));
}

/** The dictionary's stems (≈ 200k: a sorted dictionary holds them in ≈ 2 MB, a Set in ≈ 15); the file must match the analyzer. */
export function scopeStems(files: ScopeFiles): TermDictionary {
  const stemLines = gunzipSync(files.stemsGz).toString("utf8").split("\n");
  const analyzer = stemLines.find((line) => line.startsWith("# analyzer "))?.slice("# analyzer ".length);
  if (analyzer !== ANALYZER_VERSION) {
    throw new Error(`${files.dir}/pt-br-stems.txt.gz foi gerado com o analisador ${analyzer ?? "?"}; rode npx tsx scripts/build-scope-resources.ts`);
  }
  // The build writes them sorted: no sort here unless they are not.
  return TermDictionary.fromSorted(stemLines.filter((line) => line !== "" && !line.startsWith("#")));
}

/** The gate's data from its parts (the stems and the topic lexicon built from the files or read from a snapshot). */
export function scopeResources(files: Pick<ScopeFiles, "modelJson">, stems: TermDictionary, topics: TopicLexicon): ScopeResources & { stems: TermDictionary } {
  return { lexicons: { words: { hasStem: (stem) => stems.has(stem) }, topics }, model: JSON.parse(files.modelJson) as ScopeModel, stems };
}
