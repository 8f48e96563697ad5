/**
 * Regenerates the data the out-of-scope gate reads (resources/scope/) from Debian packages and
 * the shared OpenWordNet-PT file, so the derivation is reproducible:
 *
 *   apt-get install wordnet-base hunspell-pt-br
 *   npx tsx scripts/build-scope-resources.ts [shared-dir]
 *
 * Writes:
 * - resources/scope/wordnet-pt-topics.tsv.gz: every single-word OpenWordNet-PT lemma with the
 *   Princeton WordNet 3.0 lexicographer files of its synsets (noun.food, verb.emotion, …) and
 *   the topic-domain groups those synsets (or their hypernyms, up to 3 levels) belong to
 *   (religion, technology, sport…). WordNet licence; OpenWordNet-PT CC BY-SA.
 * - resources/scope/pt-br-stems.txt.gz: the stems (the project's analyzer) of the Brazilian
 *   Portuguese hunspell dictionary's words, to tell a real word from a typo. MPL-2.0 / LGPL-3.
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { ANALYZER_VERSION, analyzeWord } from "../src/core/analysis/analyze.js";
import { cleanLemma, modernizeSpelling } from "../src/core/analysis/lexicon.js";
import { findProjectRoot } from "../src/project-root.js";
import { DOMAIN_GROUPS, LEXNAMES } from "../src/core/retrieval/scope/topics.js";

const root = findProjectRoot(import.meta.url);
const shared = resolve(process.argv[2] ?? process.env.PASTOR_SHARED_DIR ?? join(root, "..", "shared"));
const WORDNET_DIR = "/usr/share/wordnet";
const HUNSPELL_DIC = "/usr/share/hunspell/pt_BR.dic";
const out = join(root, "resources", "scope");
mkdirSync(out, { recursive: true });

interface SynsetInfo {
  lexname: string;
  domains: string[];
  hypernyms: string[];
}

const POS_FILES: Record<string, string> = { n: "data.noun", v: "data.verb", a: "data.adj", r: "data.adv" };
const synsets = new Map<string, SynsetInfo>();
const domainNameOf = new Map<string, string>();

for (const [pos, file] of Object.entries(POS_FILES)) {
  for (const line of readFileSync(join(WORDNET_DIR, file), "latin1").split("\n")) {
    if (line === "" || line.startsWith(" ")) continue;
    const fields = line.split(" | ")[0]!.split(" ");
    const offset = fields[0]!;
    const lexnum = Number(fields[1]);
    const wordCount = parseInt(fields[3]!, 16);
    const firstWord = fields[4]!;
    let at = 4 + wordCount * 2;
    const pointerCount = Number(fields[at]);
    at++;
    const info: SynsetInfo = { lexname: LEXNAMES[lexnum] ?? "unknown", domains: [], hypernyms: [] };
    for (let i = 0; i < pointerCount; i++, at += 4) {
      const symbol = fields[at]!;
      const target = `${fields[at + 1]}-${fields[at + 2] === "s" ? "a" : fields[at + 2]}`;
      if (symbol === "@" || symbol === "@i") info.hypernyms.push(target);
      else if (symbol === ";c") info.domains.push(target);
    }
    const id = `${offset}-${pos}`;
    synsets.set(id, info);
    domainNameOf.set(id, firstWord);
  }
}

const groupOfDomain = new Map<string, string>();
for (const [group, names] of Object.entries(DOMAIN_GROUPS)) for (const name of names) groupOfDomain.set(name, group);

const domainTargets = new Set([...synsets.values()].flatMap((info) => info.domains));

function domainGroups(id: string): string[] {
  const groups = new Set<string>();
  let frontier = [id];
  for (let depth = 0; depth <= 3 && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const current of frontier) {
      const info = synsets.get(current);
      if (!info) continue;
      // A synset that is itself a topic domain ("football") belongs to its group.
      const own = domainTargets.has(current) ? groupOfDomain.get(domainNameOf.get(current) ?? "") : undefined;
      if (own) groups.add(own);
      for (const domain of info.domains) {
        const group = groupOfDomain.get(domainNameOf.get(domain) ?? "");
        if (group) groups.add(group);
      }
      next.push(...info.hypernyms);
    }
    frontier = next;
  }
  return [...groups].sort();
}

/**
 * Debian's wordnet-base corrects a few glosses of WordNet 3.0, which moves the byte offsets (the
 * synset ids) of every synset after them: by 18 bytes for about two thirds of the verbs, by 1
 * for about half the adjectives. OpenWordNet-PT keeps the original offsets, so an id the file
 * lacks is read as the file's first synset of that part of speech at most MAX_DRIFT bytes after
 * it (a synset line is longer than that, so no two ids can meet one synset). Read by exact id
 * alone, 3,232 of 5,079 verb synsets and 2,659 of 5,662 adjective ones were lost.
 */
const MAX_DRIFT = 64;
const drifts = new Map<string, number>();

/** The file's synset for an OpenWordNet-PT id (original WordNet 3.0 offset), or undefined. */
function synsetIdOf(ownId: string): string | undefined {
  const [offset, pos] = ownId.replace(/-s$/, "-a").split("-") as [string, string];
  for (let drift = 0; drift <= MAX_DRIFT; drift++) {
    const id = `${String(Number(offset) + drift).padStart(offset.length, "0")}-${pos}`;
    if (!synsets.has(id)) continue;
    if (drift > 0) drifts.set(`${pos} +${drift}`, (drifts.get(`${pos} +${drift}`) ?? 0) + 1);
    return id;
  }
  return undefined;
}

// OpenWordNet-PT: lemma → lexnames (one per synset) and domain groups.
const byLemma = new Map<string, { lexnames: string[]; domains: Set<string> }>();
for (const line of readFileSync(join(shared, "lexicon", "wn-data-por.tab"), "utf8").split("\n")) {
  if (line === "" || line.startsWith("#")) continue;
  const [id, kind, raw] = line.split("\t");
  if (!id || raw === undefined || (kind !== "lemma" && kind !== "por:lemma")) continue;
  const cleaned = cleanLemma(raw);
  if (cleaned === undefined) continue;
  const lemma = modernizeSpelling(cleaned);
  const synsetId = synsetIdOf(id);
  if (synsetId === undefined) continue;
  let entry = byLemma.get(lemma);
  if (!entry) byLemma.set(lemma, (entry = { lexnames: [], domains: new Set() }));
  entry.lexnames.push(synsets.get(synsetId)!.lexname);
  for (const group of domainGroups(synsetId)) entry.domains.add(group);
}
console.log("OpenWordNet-PT lemma rows read at a moved offset:", Object.fromEntries(drifts));
const topicLines = [...byLemma.entries()]
  .sort((a, b) => (a[0] < b[0] ? -1 : 1))
  .map(([lemma, entry]) => `${lemma}\t${entry.lexnames.join(",")}\t${[...entry.domains].sort().join(",")}`);
const topicHeader = [
  "# OpenWordNet-PT lemmas (own-pt/openWordnet-PT, CC BY-SA) with Princeton WordNet 3.0 lexicographer files and topic-domain groups.",
  "# WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. (WordNet licence: see resources/scope/README.md)",
  "# Derived by scripts/build-scope-resources.ts. Columns: lemma, lexnames (one per synset), domain groups.",
];
writeFileSync(join(out, "wordnet-pt-topics.tsv.gz"), gzipSync(`${[...topicHeader, ...topicLines].join("\n")}\n`, { level: 9 }));

// hunspell pt_BR: the stems of its words.
const stems = new Set<string>();
for (const line of readFileSync(HUNSPELL_DIC, "utf8").split("\n").slice(1)) {
  const word = line.replace(/^\uFEFF/, "").split("/")[0]!.trim().toLowerCase();
  if (!/^\p{L}+$/u.test(word) || word.length < 2) continue;
  stems.add(analyzeWord(word));
}
const stemHeader = [
  "# Stems of the words of the Brazilian Portuguese hunspell dictionary (VERO, Raimundo Santos Moura; LGPL-3 or MPL-2.0), Debian's hunspell-pt-br.",
  `# analyzer ${ANALYZER_VERSION}`,
];
writeFileSync(join(out, "pt-br-stems.txt.gz"), gzipSync(`${[...stemHeader, ...[...stems].sort()].join("\n")}\n`, { level: 9 }));
console.log(`wordnet-pt-topics: ${topicLines.length} lemmas; pt-br-stems: ${stems.size} stems`);
