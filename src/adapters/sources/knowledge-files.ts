/**
 * Reads resources/knowledge/ (written by scripts/build-knowledge.ts; see its README) into core's
 * `KnowledgeIndex`: every file's bytes read at once, but the lookup keys gunzipped and parsed when
 * the first lookup needs them (a start, or any question of another kind, pays nothing for them:
 * ≈ 150 ms and ≈ 12 MB of heap, paid by the first question of knowledge), the records' files when
 * a lookup first returns one of their records (each record parsed then); the details (every
 * mention, the topical headings; ≈ 8 MB) read only when first asked for. Ordinary Portuguese
 * words are told from names by the project's dictionary stems (resources/scope/pt-br-stems.txt.gz),
 * unless the caller hands its own test (the gate's).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { ANALYZER_VERSION, analyzeWord } from "../../core/analysis/analyze.js";
import { KnowledgeIndex } from "../../core/knowledge/knowledge-index.js";
import { findProjectRoot } from "../../project-root.js";

export const KNOWLEDGE_DIR = "resources/knowledge";
export const KNOWLEDGE_FILES = Object.freeze({
  keys: "index.tsv.gz",
  people: "people.jsonl.gz",
  places: "places.jsonl.gz",
  events: "events.jsonl.gz",
  terms: "terms.jsonl.gz",
  details: "details.jsonl.gz",
});
const STEMS_FILE = "resources/scope/pt-br-stems.txt.gz";

export interface KnowledgeLoadOptions {
  /** The folder of the files (default resources/knowledge under the project root). */
  dir?: string;
  /** Whether a folded lowercase word is an ordinary Portuguese word; default: the dictionary stems. */
  isWord?: (foldedWord: string) => boolean;
}

const unreadable = (path: string, err: unknown) =>
  new Error(`não foi possível ler ${path}: ${(err as Error).message}; rode npx tsx scripts/build-knowledge.ts`, { cause: err });

async function gunzipText(path: string): Promise<string> {
  return gunzipLater(path, await readBytes(path))();
}

async function readBytes(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    throw unreadable(path, err);
  }
}

/** The file's text, gunzipped when first asked for (the bytes are read now). */
function gunzipLater(path: string, bytes: Buffer): () => string {
  return () => {
    try {
      return gunzipSync(bytes).toString("utf8");
    } catch (err) {
      throw unreadable(path, err);
    }
  };
}

/** The dictionary's stems as a word test (a word is ordinary when its stem is a dictionary word's); the gate's own test can be passed instead. */
async function dictionaryWords(root: string): Promise<(foldedWord: string) => boolean> {
  const lines = (await gunzipText(join(root, STEMS_FILE))).split("\n");
  const analyzer = lines.find((line) => line.startsWith("# analyzer "))?.slice("# analyzer ".length);
  if (analyzer !== ANALYZER_VERSION) throw new Error(`${STEMS_FILE} foi gerado com o analisador ${analyzer ?? "?"}; rode npx tsx scripts/build-scope-resources.ts`);
  // ≈ 200k sorted stems kept as one array of strings searched by halves (a Set of them holds ≈ 15 MB).
  const stems = lines.filter((line) => line !== "" && !line.startsWith("#"));
  // The build writes them sorted; sorted again only if not.
  if (stems.some((stem, i) => i > 0 && stems[i - 1]! > stem)) stems.sort();
  return (word) => {
    const stem = analyzeWord(word);
    let low = 0;
    let high = stems.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = stems[middle]!;
      if (value === stem) return true;
      if (value < stem) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  };
}

let loading: Promise<KnowledgeIndex> | undefined;

/** The knowledge index (people, places, events, terms), read once per process for the default folder and test. */
export function loadKnowledge(options: KnowledgeLoadOptions = {}): Promise<KnowledgeIndex> {
  if (options.dir !== undefined || options.isWord !== undefined) return readKnowledge(options);
  loading ??= readKnowledge(options);
  return loading;
}

async function readKnowledge(options: KnowledgeLoadOptions): Promise<KnowledgeIndex> {
  const root = findProjectRoot();
  const dir = options.dir ?? join(root, KNOWLEDGE_DIR);
  // Every file read now; the keys gunzipped when the first lookup needs them, the records' files when a lookup first returns one of theirs.
  const later = async (file: string) => gunzipLater(join(dir, file), await readBytes(join(dir, file)));
  const [keys, people, places, events, terms, isWord] = await Promise.all([
    later(KNOWLEDGE_FILES.keys),
    later(KNOWLEDGE_FILES.people),
    later(KNOWLEDGE_FILES.places),
    later(KNOWLEDGE_FILES.events),
    later(KNOWLEDGE_FILES.terms),
    options.isWord ? Promise.resolve(options.isWord) : dictionaryWords(root),
  ]);
  return KnowledgeIndex.parse({ keys, people, places, events, terms }, { isWord, details: () => gunzipText(join(dir, KNOWLEDGE_FILES.details)) });
}
