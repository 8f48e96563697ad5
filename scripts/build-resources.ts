/**
 * Regenerates the derived reference files under resources/ from the raw data in ../shared
 * (the read-only folder beside the checkout), so the derivation is reproducible:
 *
 *   npx tsx scripts/build-resources.ts [shared-dir]
 *
 * (default shared dir: `../shared` relative to the project root, or $PASTOR_SHARED_DIR).
 *
 * Writes:
 * - resources/openbible/cross-references.tsv.gz   (OpenBible.info, CC BY)
 * - resources/lexicon/wn-data-por.single-words.tab (OpenWordNet-PT, CC BY-SA)
 * - resources/lexicon/nominalizations.tsv         (OpenWordNet-PT NomLex-PT, CC BY 4.0)
 * - resources/lexicon/LICENSE.own-pt              (copied byte for byte)
 * The READMEs and resources/lexicon/nominalizations-extra.tsv are written by hand.
 *
 * Input checksums are compared with the ones documented in ../shared's READMEs; a mismatch is
 * reported (the output is still written, so a newer upstream file can be adopted on purpose).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { cleanLemma, formatNominalizations, formatWordnetTab, parseMorphosemanticLinks, parseWordnetTab } from "../src/core/analysis/lexicon.js";
import type { WordnetSynset } from "../src/core/analysis/lexicon.js";
import { findProjectRoot } from "../src/project-root.js";
import { CROSS_REFERENCES_FILE } from "../src/adapters/sources/cross-references-file.js";
import { formatCrossReferences, parseCrossReferenceColumns, CrossReferenceIndex } from "../src/core/bible/cross-references.js";

const EXPECTED_SHA256: Record<string, string> = {
  "reference/openbible/cross_references.txt": "040598e61fdd7ee28cd06f9c828a18ff3b3b714fa2116a0745fd168059f69aec",
  "lexicon/wn-data-por.tab": "46f022985675bc282d616ed6f2b60587fb9230378fe1fe1b70ce0571b5926882",
  "lexicon/own-pt-morphosemantic-links.ttl": "db1899f99ec51e45552a64f8eb8ea82a160c2a250f40ad77e1d2d37b1991c27b",
  "lexicon/LICENSE.own-pt": "575877531d567fcd30848c489e5216381d61121422a2a2337163847ad2da5c6d",
};

const root = findProjectRoot(import.meta.url);
const shared = resolve(process.argv[2] ?? process.env.PASTOR_SHARED_DIR ?? join(root, "..", "shared"));

function readInput(name: string): Buffer {
  const data = readFileSync(join(shared, name));
  const sha = createHash("sha256").update(data).digest("hex");
  const expected = EXPECTED_SHA256[name];
  if (expected && sha !== expected) console.warn(`AVISO: ${name} mudou (sha256 ${sha}, esperado ${expected})`);
  return data;
}

function write(path: string, data: string | Buffer): void {
  const full = join(root, path);
  mkdirSync(join(full, ".."), { recursive: true });
  writeFileSync(full, data);
  console.log(`${relative(root, full)}: ${statSync(full).size.toLocaleString("pt-BR")} bytes`);
}

// OpenBible.info cross references ------------------------------------------------------------
{
  const text = readInput("reference/openbible/cross_references.txt").toString("utf8");
  const { columns, stats } = parseCrossReferenceColumns(text, { minVotes: 1 });
  const index = new CrossReferenceIndex(columns);
  const header = [
    "OpenBible.info cross references, www.openbible.info, CC BY (attribution: \"OpenBible.info\"), data of 2026-03-02.",
    `Derived by scripts/build-resources.ts: ${stats.kept} links with votes >= 1 kept; dropped ${stats.lowVotes} with votes <= 0, ${stats.crossBook} ranges spanning two books, ${stats.malformed} malformed.`,
    "Format: from<TAB>to<TAB>votes; USFX book codes; to is a verse or a range (COL 1:16-17, GEN 11:32-12:1); sorted by from (canonical order), then votes descending.",
  ];
  write(CROSS_REFERENCES_FILE, gzipSync(formatCrossReferences(index, header), { level: 9 }));
  console.log(`  ${JSON.stringify(stats)}`);
}

// OpenWordNet-PT synsets (single-word lemmas) ----------------------------------------------------
{
  const text = readInput("lexicon/wn-data-por.tab").toString("utf8");
  const rows = text.split("\n").filter((line) => line !== "" && !line.startsWith("#")).length;
  const droppedExamples = new Set<string>();
  for (const line of text.split("\n").slice(1, 2000)) {
    const word = line.split("\t")[2];
    if (word !== undefined && cleanLemma(word) === undefined && droppedExamples.size < 5) droppedExamples.add(word);
  }
  // Spelling kept as in the data here; modernisation happens when loading (see lexicon.ts).
  const synsets: WordnetSynset[] = parseWordnetTab(text, { modernize: false }).filter((synset) => synset.lemmas.length >= 2);
  const kept = synsets.reduce((sum, synset) => sum + synset.lemmas.length, 0);
  const header = [
    "OpenWN-PT\tpor\thttps://github.com/arademaker/wordnet-br\tCC BY-SA",
    "Subset of OpenWordNet-PT's wn-data-por.tab (own-pt/openWordnet-PT, Rademaker, de Paiva et al.; based on Princeton WordNet 3.0), CC BY-SA.",
    `Derived by scripts/build-resources.ts: ${rows} rows -> ${kept} rows in ${synsets.length} synsets. Lemmas lowercased, qualifiers in parentheses removed;`,
    "only single-word lemmas kept (no spaces, hyphens, digits, dots or non-Portuguese letters); only synsets with >= 2 such lemmas kept. Spelling as in the source.",
  ];
  write("resources/lexicon/wn-data-por.single-words.tab", formatWordnetTab(synsets, header));
  console.log(`  examples of dropped lemmas: ${[...droppedExamples].join(" | ")}`);
}

// NomLex-PT verb↔noun pairs ----------------------------------------------------------------------
{
  const ttl = readInput("lexicon/own-pt-morphosemantic-links.ttl").toString("utf8");
  const pairs = parseMorphosemanticLinks(ttl);
  const header = [
    "NomLex-PT verb<->noun nominalizations from OpenWordNet-PT's own-pt-morphosemantic-links.ttl (own-pt/openWordnet-PT, Rademaker, de Paiva et al.), CC BY 4.0.",
    `Derived by scripts/build-resources.ts: ${pairs.length} owns:Nominalization records with both a verb and a noun; word forms from the IRIs, lowercased.`,
    "Format: verb<TAB>noun<TAB>kind (agentive = owns:Agentive, else empty)<TAB>noun plural (owns:plural, may be empty).",
  ];
  write("resources/lexicon/nominalizations.tsv", formatNominalizations(pairs, header));
}

// Byte-for-byte copy (written rather than copied so the read-only mode of ../shared is not kept).
write("resources/lexicon/LICENSE.own-pt", readInput("lexicon/LICENSE.own-pt"));
