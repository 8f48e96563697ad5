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

/** The gate's data, read once per process. */
export function loadScopeResources(dir = join(findProjectRoot(), SCOPE_DIR)): Promise<ScopeResources> {
  if (dir !== join(findProjectRoot(), SCOPE_DIR)) return readScopeResources(dir);
  loading ??= readScopeResources(dir);
  return loading;
}

async function readScopeResources(dir: string): Promise<ScopeResources> {
  const [stemsGz, topicsGz, modelJson] = await Promise.all([
    readFile(join(dir, "pt-br-stems.txt.gz")),
    readFile(join(dir, "wordnet-pt-topics.tsv.gz")),
    readFile(join(dir, "model.json"), "utf8"),
  ]);
  const stemLines = gunzipSync(stemsGz).toString("utf8").split("\n");
  const analyzer = stemLines.find((line) => line.startsWith("# analyzer "))?.slice("# analyzer ".length);
  if (analyzer !== ANALYZER_VERSION) {
    throw new Error(`${dir}/pt-br-stems.txt.gz foi gerado com o analisador ${analyzer ?? "?"}; rode npx tsx scripts/build-scope-resources.ts`);
  }
  // ≈ 200k stems: a sorted dictionary holds them in ≈ 2 MB, a Set in ≈ 15.
  const { dictionary: stems } = TermDictionary.fromTerms(stemLines.filter((line) => line !== "" && !line.startsWith("#")));
  const topics = new TopicLexicon(parseTopicRows(gunzipSync(topicsGz).toString("utf8")));
  return { lexicons: { words: { hasStem: (stem) => stems.has(stem) }, topics }, model: JSON.parse(modelJson) as ScopeModel };
}
