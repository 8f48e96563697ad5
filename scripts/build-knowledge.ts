/**
 * Regenerates resources/knowledge/ (who is who, where is where, what happened, what a word means
 * and which verses treat it) from the field's open reference data and the corpus:
 *
 *   apt-get install wordnet-base
 *   npx tsx scripts/build-knowledge.ts [shared-dir]
 *
 * Reads ../shared/reference/theographic/ (People, Places, Events, Easton, Topics, TopicIndex;
 * CC BY-SA 4.0), ../shared/reference/naves/ (Nave's Topical Bible; CC BY 4.0),
 * ../shared/lexicon/wn-data-por.tab (OpenWordNet-PT; CC BY-SA), Princeton WordNet 3.0 in
 * /usr/share/wordnet and corpus/por-blivre.usfx.xml. Writes people, places, events and terms as
 * gzipped JSON Lines (`src/core/knowledge/records.ts` is the format), the licences, and
 * build-summary.json (the figures resources/knowledge/README.md quotes). Nothing is written by
 * hand: Portuguese names are learned from the verses (`core/knowledge/alignment.ts`), English
 * headings reach Portuguese through WordNet (`core/knowledge/bridge.ts`).
 */
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { loadUsfxFile } from "../src/adapters/sources/usfx-file.js";
import { analyzeWord, foldAccents, isStopword, splitWords } from "../src/core/analysis/index.js";
import { alignNames, type AlignEntity, type NameAlignment } from "../src/core/knowledge/alignment.js";
import { bridgeHeading, glossWords, type Bridge, type BridgeSources } from "../src/core/knowledge/bridge.js";
import { csvObjects } from "../src/core/knowledge/csv.js";
import { formatKeyRows } from "../src/core/knowledge/key-rows.js";
import type { DetailRecord, EventRecord, HeadingRecord, NameRecord, PersonRecord, PlaceRecord, TermRecord, TermVerse } from "../src/core/knowledge/records.js";
import { eastonReferences, naveLines, osisVerse, type VerseSpan } from "../src/core/knowledge/verse-refs.js";
import { originalIdResolver, Wordnet, type WordnetPos } from "../src/core/knowledge/wordnet.js";
import { findProjectRoot } from "../src/project-root.js";

const started = Date.now();
const root = findProjectRoot(import.meta.url);
const shared = resolve(process.argv[2] ?? process.env.PASTOR_SHARED_DIR ?? join(root, "..", "shared"));
const THEOGRAPHIC = join(shared, "reference", "theographic");
const NAVES = join(shared, "reference", "naves");
const WORDNET_DIR = "/usr/share/wordnet";
const OUT = join(root, "resources", "knowledge");

/** A whole-chapter reference ("NUM 17") contributes its first verses only. */
const CHAPTER_CAP = 5;
/** A range ("EXO 12:3-49") contributes at most this many verses to a term's ranking and a person's key verses. */
const RANGE_CAP = 12;
/** Key verses of a person or place. */
const KEY_VERSES = 8;
/** At most this many of a citation's verses become key verses. */
const KEY_PER_CITATION = 2;
/** The corpus check of a lemma reads at most this many of an entry's verses. */
const CHECK_VERSES = 80;
/** Ranked verses kept per term (the first TERM_KEY_VERSES read at load, the rest in the details). */
const TERM_VERSES = 60;
const TERM_KEY_VERSES = 12;
/** Salient stems kept per term. */
const SALIENT = 8;


const EXPECTED_SHA256: Record<string, string> = {
  "reference/theographic/People.csv": "58a41f7e7581f445995af2c70476d3f8d1d5210533386ff82a5300b5bf731de0",
  "reference/theographic/Places.csv": "c39849fa4e460ff27c9498d779d658da79710adfe95287e5d9ad541f7682caf2",
  "reference/theographic/Events.csv": "8516288badc14080efb6fcd6565abd1f9cd574f2ef637dbd6e52aa0e570d104b",
  "reference/theographic/Easton.csv": "c099b7f99d62e4d65b0fcd662af951e2784a558cd0564bb25dc7aa98fd1d0aa6",
  "reference/theographic/Topics.csv": "fda45a562487c4f2c3a860270888fe67da6ce96bd5100d274757736a55c84f15",
  "reference/theographic/TopicIndex.csv": "001a5bd32d01e928517474cc459187109009d45d5a974f9eadcb3a15ea3e380c",
  "reference/naves/NavesTopicalDictionary.csv": "84f54e0c90293ed0674589cb417fa11a7dab572716735e5d626cc58645f1d49b",
  "lexicon/wn-data-por.tab": "46f022985675bc282d616ed6f2b60587fb9230378fe1fe1b70ce0571b5926882",
};

function readShared(name: string): string {
  const data = readFileSync(join(shared, name));
  const sha = createHash("sha256").update(data).digest("hex");
  if (EXPECTED_SHA256[name] && sha !== EXPECTED_SHA256[name]) console.warn(`AVISO: ${name} mudou (sha256 ${sha})`);
  return data.toString("utf8");
}

// ---------------------------------------------------------------------------------------------
// The corpus: verses in KJV order, their stems, and their capitalised words.

const corpus = (await loadUsfxFile(join(root, "corpus", "por-blivre.usfx.xml"))).filter((verse) => verse.canonical);
const refs = corpus.map((verse) => `${verse.book} ${verse.chapter}:${verse.verse}`);
const texts = corpus.map((verse) => verse.text);
const indexOfRef = new Map(refs.map((ref, i) => [ref, i]));
const chapterStart = new Map<string, number>();
const chapterLength = new Map<string, number>();
corpus.forEach((verse, i) => {
  const chapter = `${verse.book} ${verse.chapter}`;
  if (!chapterStart.has(chapter)) chapterStart.set(chapter, i);
  chapterLength.set(chapter, (chapterLength.get(chapter) ?? 0) + 1);
});
const stemsOf: Set<string>[] = texts.map((text) => {
  const stems = new Set<string>();
  for (const word of splitWords(text)) if (!isStopword(foldAccents(word)) && !/^\d+$/.test(word)) stems.add(analyzeWord(word));
  return stems;
});
const stemDf = new Map<string, number>();
for (const stems of stemsOf) for (const stem of stems) stemDf.set(stem, (stemDf.get(stem) ?? 0) + 1);
const idf = (stem: string) => Math.log(texts.length / (stemDf.get(stem) ?? 1));
// How often each word is printed in lowercase, and capitalised away from a sentence's start (a
// name printed in lowercase is an ordinary word too: "sul", "tola"; "Ai" opens laments).
const lowerCount = new Map<string, number>();
const upperCount = new Map<string, number>();
for (const text of texts) {
  for (const match of text.matchAll(/\p{L}+(?:-\p{L}+)*/gu)) {
    const word = match[0];
    // Folded, as a typed word is compared: "tola" is "Tolá" and the adjective.
    const key = foldAccents(word.toLowerCase());
    const before = text.slice(0, match.index).replace(/[\s"'“”‘’«»(—-]+$/u, "");
    if (/^\p{Lu}/u.test(word)) {
      if (before !== "" && !/[.!?:;]$/.test(before)) upperCount.set(key, (upperCount.get(key) ?? 0) + 1);
    } else lowerCount.set(key, (lowerCount.get(key) ?? 0) + 1);
  }
}
const lowercaseShare = (form: string) => {
  const key = foldAccents(form.toLowerCase());
  const lower = lowerCount.get(key) ?? 0;
  return Number((lower / Math.max(1, lower + (upperCount.get(key) ?? 0))).toFixed(3));
};

const invalid = { references: 0, spans: 0 };
/** A span's verse indices (a whole chapter capped), or [] when the corpus lacks it. */
function expand(span: VerseSpan, cap = Infinity): number[] {
  invalid.spans++;
  const chapter = `${span.book} ${span.chapter}`;
  const start = chapterStart.get(chapter);
  if (start === undefined) {
    invalid.references++;
    return [];
  }
  if (span.verse === undefined) {
    const length = Math.min(CHAPTER_CAP, chapterLength.get(chapter)!);
    return Array.from({ length }, (_, i) => start + i);
  }
  const first = indexOfRef.get(`${chapter}:${span.verse}`);
  if (first === undefined) {
    invalid.references++;
    return [];
  }
  let last = first;
  if (span.endChapter !== undefined) last = indexOfRef.get(`${span.book} ${span.endChapter}:${span.verseEnd}`) ?? first;
  else if (span.verseEnd !== undefined) {
    const end = indexOfRef.get(`${chapter}:${span.verseEnd}`);
    if (end === undefined) invalid.references++;
    last = end ?? first;
  }
  const out: number[] = [];
  for (let i = first; i <= last && out.length < cap; i++) out.push(i);
  return out;
}

/** Sorted verse indices as runs, `BOOK C:V-W` within a chapter. */
function runsOf(indices: Iterable<number>): string[] {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    const first = corpus[sorted[i]!]!;
    const sameChapter = (k: number) => corpus[k]!.chapter === first.chapter && corpus[k]!.book === first.book;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1 && sameChapter(sorted[j + 1]!)) j++;
    runs.push(j === i ? refs[sorted[i]!]! : `${refs[sorted[i]!]}-${corpus[sorted[j]!]!.verse}`);
    i = j + 1;
  }
  return runs;
}

const osisIndex = (id: string): number => {
  const span = osisVerse(id);
  return span ? (indexOfRef.get(`${span.book} ${span.chapter}:${span.verse}`) ?? -1) : -1;
};
const osisList = (text: string | undefined): number[] =>
  (text ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean)
    .map(osisIndex)
    .filter((i) => i >= 0);
const ids = (text: string | undefined): string[] =>
  (text ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);

// ---------------------------------------------------------------------------------------------
// WordNet 3.0 and OpenWordNet-PT.

const wn = (file: string) => readFileSync(join(WORDNET_DIR, file), "latin1");
const POS_NAMES: Record<WordnetPos, string> = { n: "noun", v: "verb", a: "adj", r: "adv" };
const wordnet = new Wordnet({
  index: Object.fromEntries(Object.entries(POS_NAMES).map(([pos, name]) => [pos, wn(`index.${name}`)])),
  data: Object.fromEntries(Object.entries(POS_NAMES).map(([pos, name]) => [pos, wn(`data.${name}`)])),
  exceptions: Object.fromEntries(Object.entries(POS_NAMES).map(([pos, name]) => [pos, wn(`${name}.exc`)])),
});
const resolveOwn = originalIdResolver(wordnet.synsetIds());
const portuguese = new Map<string, string[]>();
let ownRows = 0;
let ownMoved = 0;
for (const line of readShared("lexicon/wn-data-por.tab").split("\n")) {
  const [id, kind, lemma] = line.replace(/\r$/, "").split("\t");
  if (!id || !lemma || (kind !== "lemma" && kind !== "por:lemma")) continue;
  const fileId = resolveOwn(id);
  if (!fileId) continue;
  ownRows++;
  if (fileId !== id.replace(/-s$/, "-a")) ownMoved++;
  const list = portuguese.get(fileId) ?? [];
  if (!list.includes(lemma)) list.push(lemma);
  portuguese.set(fileId, list);
}
const sources: BridgeSources = { wordnet, portugueseOf: (id) => portuguese.get(id) ?? [] };

// A lemma's presence in verses: its stems, each exactly or (six letters or more) as a stem one
// letter apart at the end ("necromancia" / "necromante").
const stemsByPrefix = new Map<string, string[]>();
for (const stem of stemDf.keys()) {
  if (stem.length < 6) continue;
  const list = stemsByPrefix.get(stem.slice(0, 5)) ?? [];
  list.push(stem);
  stemsByPrefix.set(stem.slice(0, 5), list);
}
const nearCache = new Map<string, string[]>();
function nearStems(stem: string): string[] {
  let near = nearCache.get(stem);
  if (!near) {
    near = [];
    if (stem.length >= 6) {
      for (const other of stemsByPrefix.get(stem.slice(0, 5)) ?? []) {
        let common = 0;
        while (common < stem.length && stem[common] === other[common]) common++;
        if (other !== stem && common >= Math.min(stem.length, other.length) - 1) near.push(other);
      }
    }
    nearCache.set(stem, near);
  }
  return near;
}
const lemmaStemCache = new Map<string, string[]>();
function lemmaStems(lemma: string): string[] {
  let stems = lemmaStemCache.get(lemma);
  if (!stems) {
    stems = splitWords(lemma)
      .filter((word) => !isStopword(foldAccents(word)))
      .map(analyzeWord);
    lemmaStemCache.set(lemma, stems);
  }
  return stems;
}
/** How many verses of the corpus hold every stem of a lemma. */
const corpusVerseCache = new Map<string, number>();
function corpusVerses(lemma: string): number {
  const stems = lemmaStems(lemma);
  if (stems.length === 0) return 0;
  if (!corpusVerseCache.has(lemma)) corpusVerseCache.set(lemma, stemsOf.filter((verse) => stems.every((stem) => verse.has(stem))).length);
  return corpusVerseCache.get(lemma)!;
}

/** The share of `verses` holding the lemma (an inexact stem counts half). */
function shareIn(lemma: string, verses: readonly number[]): number {
  const stems = lemmaStems(lemma);
  if (stems.length === 0 || verses.length === 0) return 0;
  let held = 0;
  for (const verse of verses.slice(0, CHECK_VERSES)) {
    let exact = true;
    let all = true;
    for (const stem of stems) {
      if (stemsOf[verse]!.has(stem)) continue;
      exact = false;
      if (!nearStems(stem).some((near) => stemsOf[verse]!.has(near))) {
        all = false;
        break;
      }
    }
    if (all) held += exact ? 1 : 0.5;
  }
  return held / Math.min(verses.length, CHECK_VERSES);
}

// ---------------------------------------------------------------------------------------------
// People and places: names to align, Easton's citations, family.

const people = csvObjects(readShared("reference/theographic/People.csv"));
const places = csvObjects(readShared("reference/theographic/Places.csv"));
const events = csvObjects(readShared("reference/theographic/Events.csv"));
const easton = csvObjects(readShared("reference/theographic/Easton.csv"));
const torreyTopics = csvObjects(readShared("reference/theographic/Topics.csv"));
const torreyLinks = csvObjects(readShared("reference/theographic/TopicIndex.csv"));
const naves = csvObjects(readShared("reference/naves/NavesTopicalDictionary.csv"));

const capitalisedNames = (text: string | undefined): string[] =>
  (text ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => /^\p{Lu}/u.test(name));

interface Entity {
  kind: "person" | "place";
  id: string;
  en: string;
  names: string[];
  mentions: number[];
  dictText: string;
  row: Record<string, string>;
}
const entities: Entity[] = [];
for (const row of people) {
  // The display title's other capitalised words are names too ("Simon Peter").
  const display = (row.displayTitle ?? "").split(/\s+/).filter((word) => /^\p{Lu}\p{L}+$/u.test(word) && word !== row.name);
  const names = [...new Set([row.name!, ...display, ...capitalisedNames(row.alsoCalled)])].filter(Boolean);
  entities.push({ kind: "person", id: row.personLookup!, en: row.displayTitle || row.name!, names, mentions: osisList(row.verses), dictText: row.dictText ?? "", row });
}
for (const row of places) {
  const names = [...new Set([row.kjvName!, row.esvName!, ...capitalisedNames(row.aliases)])].filter(Boolean);
  entities.push({ kind: "place", id: row.placeLookup!, en: row.displayTitle || row.kjvName!, names, mentions: osisList(row.verses), dictText: row.dictText ?? "", row });
}
const entityById = new Map(entities.map((entity) => [entity.id, entity]));
const entitiesByName = new Map<string, Entity[]>();
for (const entity of entities) {
  for (const name of entity.names) {
    const key = name.toLowerCase();
    entitiesByName.set(key, [...(entitiesByName.get(key) ?? []), entity]);
  }
}

// ---------------------------------------------------------------------------------------------
// The topical sources' headings: Torrey's, Nave's, Easton's entries that are no person or place.

interface Heading {
  src: "n" | "t" | "e";
  title: string;
  sub: string;
  verses: number[];
  /** Verses with their weight in the ranking (a range's later verses and capped chapters count less). */
  weighted: Map<number, number>;
  /** The verse each reference names first (what the heading cites, not the range it opens). */
  cited: number[];
}

/** The weight of what a source cites early (Nave's first sub-headings, Easton's first citations): 1, falling to 0.3. */
const early = (position: number) => 0.3 + 0.7 / (1 + position / 2);

/**
 * A heading's verses with their weights: a range's first verse 1, the others 0.7; `order` weighs
 * the heading's place in its entry, `citationOrder` each citation's place (Easton's).
 */
function heading(src: Heading["src"], title: string, sub: string, spans: VerseSpan[], order = 0, citationOrder = false, cap = RANGE_CAP): Heading {
  const weighted = new Map<number, number>();
  const cited: number[] = [];
  spans.forEach((span, k) => {
    // A heading's first references are its main ones (Easton's, a dictionary article's, fall faster).
    const place = early(order) * (citationOrder ? early(k) : 0.5 + 0.5 / (1 + k / 2));
    const verses = expand(span, cap);
    if (verses.length > 0 && !cited.includes(verses[0]!)) cited.push(verses[0]!);
    verses.forEach((verse, i) => weighted.set(verse, Math.max(weighted.get(verse) ?? 0, place * (i === 0 ? 1 : 0.7))));
  });
  return { src, title, sub, verses: [...weighted.keys()], weighted, cited };
}

const headings: Heading[] = [];
// Torrey's: TopicID → verse positions (1 = Genesis 1:1, in the corpus's order).
const torreyVerses = new Map<string, number[]>();
for (const link of torreyLinks) {
  const position = Number(link.VerseID) - 1;
  if (!(position >= 0 && position < texts.length)) {
    invalid.references++;
    continue;
  }
  const list = torreyVerses.get(link.TopicID!) ?? [];
  list.push(position);
  torreyVerses.set(link.TopicID!, list);
}
for (const topic of torreyTopics) {
  const verses = torreyVerses.get(topic.TopicID!) ?? [];
  if (verses.length === 0) continue;
  // Consecutive verses are one reference (its first verse the one cited); earlier references weigh more, as in the others.
  const sorted = [...new Set(verses)].sort((a, b) => a - b);
  const spans: VerseSpan[] = [];
  for (const verse of sorted) {
    const last = spans[spans.length - 1];
    const at = corpus[verse]!;
    if (last && last.chapter === at.chapter && last.book === at.book && (last.verseEnd ?? last.verse) === at.verse - 1) last.verseEnd = at.verse;
    else spans.push({ book: at.book, chapter: at.chapter, verse: at.verse });
  }
  headings.push(heading("t", topic.Topic!.trim(), (topic.Subtopic ?? "").trim(), spans, 0, false, Infinity));
}
// Nave's: a line's path of sub-headings ("INSTANCE OF / The witch of En-dor"); "-See X" kept.
const naveSee = new Map<string, string[]>();
for (const subject of naves) {
  const title = subject.subject!.trim();
  const path: string[] = [];
  let order = 0;
  for (const line of naveLines(subject.entry ?? "")) {
    const text = line.text.replace(/^\d+\.\s*/, "");
    path.length = line.depth;
    if (line.see.length > 0) naveSee.set(title, [...(naveSee.get(title) ?? []), ...line.see]);
    if (line.spans.length === 0) {
      if (line.see.length === 0) path[line.depth] = text;
      continue;
    }
    const sub = [...path.slice(0, line.depth).filter(Boolean), text].join(" / ");
    headings.push(heading("n", title, sub, line.spans, order++));
  }
}
// Easton's entries that name no person or place (several rows for a term with several senses).
// Those that do are the people's and places' own entries (People.csv and Places.csv carry
// them), read for the key verses.
for (const row of easton) {
  if (row.personLookup || row.placeLookup) continue;
  const spans = eastonReferences(row.dictText ?? "");
  if (spans.length === 0) continue;
  headings.push(heading("e", row.termLabel!.trim(), "", spans, 0, true));
}

// A Torrey or Nave heading named like a person or place, whose verses meet that entity's, is about it.
const topicsOf = new Map<string, Heading[]>();
const termHeadings: Heading[] = [];
let attached = 0;
for (const h of headings) {
  // Easton's articles stay terms ("Jehovah", "Christ"): a dictionary entry of its own, not a heading about someone.
  const candidates = h.src === "e" ? [] : (entitiesByName.get(h.title.toLowerCase()) ?? []);
  let best: Entity | undefined;
  let bestOverlap = 0;
  // Verses shared count 1, verses of a chapter that names it a tenth (a heading may cite the verse
  // that speaks of the person without naming them).
  const chapterOf = (verse: number) => `${corpus[verse]!.book} ${corpus[verse]!.chapter}`;
  for (const entity of candidates) {
    const mentions = new Set(entity.mentions);
    const chapters = new Set(entity.mentions.map(chapterOf));
    const overlap = h.verses.reduce((sum, verse) => sum + (mentions.has(verse) ? 1 : chapters.has(chapterOf(verse)) ? 0.1 : 0), 0);
    if (overlap > bestOverlap) [best, bestOverlap] = [entity, overlap];
  }
  // Titled with the name but citing no verse of anyone so called (Miriam watching over the basket,
  // Exodus 2:4, is not named there): the most mentioned one.
  if (!best && candidates.length > 0) best = [...candidates].sort((a, b) => b.mentions.length - a.mentions.length)[0];
  if (best) {
    topicsOf.set(best.id, [...(topicsOf.get(best.id) ?? []), h]);
    attached++;
  } else termHeadings.push(h);
}

// ---------------------------------------------------------------------------------------------
// Terms: headings grouped by their English title, bridged into Portuguese once per group.

/** The English title's grouping key: lowercase, "PRIEST, HIGH" as "high priest", the last word's WordNet base. */
function titleKey(title: string): string {
  let text = title.toLowerCase().replace(/\([^)]*\)/g, "").trim();
  const inverted = /^([a-z'-]+),\s*([a-z'-]+)$/.exec(text);
  if (inverted) text = `${inverted[2]} ${inverted[1]}`;
  const words = text.split(/\s+/);
  const base = wordnet.morphy(words[words.length - 1]!, "n")[0];
  if (base && !base.includes("_")) words[words.length - 1] = base;
  return words.join(" ");
}
const groups = new Map<string, Heading[]>();
for (const h of termHeadings) groups.set(titleKey(h.title), [...(groups.get(titleKey(h.title)) ?? []), h]);

interface Group {
  key: string;
  titles: string[];
  headings: Heading[];
  verses: number[];
  bridge: Bridge;
}
const bridged: Group[] = [];
for (const [key, list] of groups) {
  // The verses most cited first: what the corpus check reads.
  const counts = new Map<number, number>();
  for (const h of list) for (const [verse, weight] of h.weighted) counts.set(verse, (counts.get(verse) ?? 0) + weight);
  const verses = [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)! || a - b);
  const title = list[0]!.title;
  const bridge = bridgeHeading(title.toLowerCase() === title ? title : title.charAt(0) + title.slice(1).toLowerCase(), sources, (lemma) => shareIn(lemma, verses));
  bridged.push({ key, titles: [...new Set(list.map((h) => h.title))], headings: list, verses, bridge });
}

// ---------------------------------------------------------------------------------------------
// Names: people, places, and the headings WordNet has no word for (proper names: "Abaddon").

const unbridged = bridged.filter((group) => group.bridge.lemmas.length === 0);
const alignInput: AlignEntity[] = [
  ...entities.map((entity) => ({ id: entity.id, names: entity.names, verses: entity.mentions })),
  ...unbridged.map((group) => ({ id: `term:${group.key}`, names: [group.titles[0]!], verses: group.verses.slice(0, CHECK_VERSES) })),
];
const alignStarted = Date.now();
const alignment = alignNames(alignInput, texts);
const alignMs = Date.now() - alignStarted;
const nameRecords = (found: NameAlignment[] | undefined): NameRecord[] =>
  (found ?? []).map((name) => ({ pt: name.form, en: name.english, c: Number(name.confidence.toFixed(3)), lc: lowercaseShare(name.form) }));

/** Key verses: Easton's citations among the entity's own verses, in citation order, then canonical order. */
function keyVerses(entity: Entity): number[] {
  const mentions = new Set(entity.mentions);
  const chosen: number[] = [];
  const cited = eastonReferences(entity.dictText);
  for (const span of cited) {
    let taken = 0;
    for (const verse of expand(span, RANGE_CAP)) {
      if (chosen.length >= KEY_VERSES || taken >= KEY_PER_CITATION) break;
      if ((mentions.size === 0 || mentions.has(verse)) && !chosen.includes(verse)) {
        chosen.push(verse);
        taken++;
      }
    }
  }
  // Too few: the entity's first verses, where it enters the story.
  for (const verse of [...mentions].sort((a, b) => a - b)) {
    if (chosen.length >= Math.min(KEY_VERSES, 3)) break;
    if (!chosen.includes(verse)) chosen.push(verse);
  }
  return chosen.sort((a, b) => a - b);
}

/** Headings of a source as records, with a Portuguese gloss of their sub-heading. */
const glossCache = new Map<string, string | undefined>();
const bestName = new Map<string, string>();
/** The Portuguese form an entity's alignment gives one of its English names (the one labelled with it, else the first). */
const formFor = (id: string, english: string): string | undefined => {
  const found = alignment.get(id);
  return found?.find((name) => name.english.toLowerCase() === english.toLowerCase())?.form ?? found?.[0]?.form;
};
// An English name's Portuguese: that of the entity called so with the most verses.
const bestMentions = new Map<string, number>();
for (const entity of entities) {
  for (const name of entity.names) {
    const key = name.toLowerCase();
    const form = formFor(entity.id, name);
    if (form && entity.mentions.length > (bestMentions.get(key) ?? -1)) {
      bestName.set(key, form);
      bestMentions.set(key, entity.mentions.length);
    }
  }
}
const portugueseName = (english: string) => bestName.get(english.toLowerCase());
function gloss(sub: string): string | undefined {
  if (!glossCache.has(sub)) {
    const words = sub.trim() === "" ? undefined : glossWords(sub, sources, portugueseName);
    glossCache.set(sub, words && words.length > 0 ? words.join(" ") : undefined);
  }
  return glossCache.get(sub);
}
function headingRecord(h: Heading): HeadingRecord {
  const record: HeadingRecord = { src: h.src, title: h.title, sub: h.sub, verses: runsOf(h.verses) };
  const text = gloss(h.sub);
  if (text) record.gloss = text;
  return record;
}

const round = (value: number) => Number(value.toFixed(3));
const personRecords: PersonRecord[] = [];
const placeRecords: PlaceRecord[] = [];
const detailRecords: DetailRecord[] = [];
const known = (list: string[]) => list.filter((id) => entityById.has(id));
for (const entity of entities) {
  const base = {
    id: entity.id,
    en: entity.en,
    names: nameRecords(alignment.get(entity.id)),
    key: keyVerses(entity).map((verse) => refs[verse]!),
    n: entity.mentions.length,
  };
  detailRecords.push({
    kind: "detail",
    id: entity.id,
    mentions: runsOf(entity.mentions),
    ...(topicsOf.has(entity.id) ? { headings: topicsOf.get(entity.id)!.map(headingRecord) } : {}),
  });
  if (entity.kind === "person") {
    const row = entity.row;
    personRecords.push({
      kind: "person",
      ...base,
      gender: row.gender === "Male" ? "m" : row.gender === "Female" ? "f" : "",
      father: known(ids(row.father)),
      mother: known(ids(row.mother)),
      partners: known(ids(row.partners)),
      children: known(ids(row.children)),
      siblings: known([...ids(row.siblings), ...ids(row.halfSiblingsSameMother), ...ids(row.halfSiblingsSameFather)]),
    });
  } else {
    const row = entity.row;
    const lat = Number(row.latitude || row.openBibleLat);
    const lon = Number(row.longitude || row.openBibleLong);
    placeRecords.push({
      kind: "place",
      ...base,
      type: row.featureType ?? "",
      ...(row.latitude || row.openBibleLat ? { lat: round(lat), lon: round(lon) } : {}),
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Events: verses, participants, places, and a word-by-word Portuguese label.

const FUNCTION_WORDS: Readonly<Record<string, string>> = { of: "de", and: "e" };
const eventRecords: EventRecord[] = [];
let eventLabels = 0;
for (const row of events) {
  const participants = known(ids(row.participants));
  const locations = known(ids(row.locations));
  const local = new Map<string, string>();
  for (const id of [...participants, ...locations]) {
    for (const name of entityById.get(id)!.names) {
      const form = formFor(id, name);
      if (form) local.set(name.toLowerCase(), form);
    }
  }
  const words: string[] = [];
  let complete = true;
  for (const token of row.title!.replace(/\([^)]*\)/g, " ").split(/[\s,]+/).filter(Boolean)) {
    const lower = token.toLowerCase().replace(/'s$/, "");
    if (FUNCTION_WORDS[lower]) {
      words.push(FUNCTION_WORDS[lower]!);
      continue;
    }
    const named = /^\p{Lu}/u.test(token) ? (local.get(lower) ?? portugueseName(lower)) : undefined;
    const glossed = named ? [named] : glossWords(token, sources, portugueseName);
    if (glossed === undefined) {
      complete = false;
      break;
    }
    words.push(...glossed);
  }
  const label = complete && words.some((word) => !Object.values(FUNCTION_WORDS).includes(word)) ? words.join(" ") : undefined;
  if (label) eventLabels++;
  eventRecords.push({
    kind: "event",
    id: `event_${row.ID}`,
    en: row.title!,
    ...(label ? { pt: label } : {}),
    verses: runsOf(osisList(row.verses)),
    people: participants.length > 0 ? participants : known([...new Set(ids(row["people (from verses)"]))]),
    places: locations.length > 0 ? locations : known([...new Set(ids(row["places (from verses)"]))]),
  });
}

// ---------------------------------------------------------------------------------------------
// Terms merged on their Portuguese lemma; verses ranked by how many sources cite them.

interface Merged {
  id: string;
  groups: Group[];
  pt: Map<string, number>;
}
const merged = new Map<string, Merged>();
const foldKey = (text: string) => foldAccents(text.toLowerCase());
for (const group of bridged) {
  let pt = new Map(group.bridge.lemmas.map((lemma) => [lemma.lemma, lemma.weight]));
  if (pt.size === 0) {
    const named = alignment.get(`term:${group.key}`)?.[0];
    if (named) pt = new Map([[named.form, round(named.confidence)]]);
  }
  const primary = [...pt.keys()][0];
  const id = primary ? foldKey(primary) : `en:${group.key}`;
  const entry = merged.get(id) ?? { id, groups: [], pt: new Map<string, number>() };
  entry.groups.push(group);
  for (const [lemma, weight] of pt) entry.pt.set(lemma, Math.max(entry.pt.get(lemma) ?? 0, weight));
  merged.set(id, entry);
}
const termOfTitle = new Map<string, string>();
for (const entry of merged.values()) for (const group of entry.groups) for (const title of group.titles) termOfTitle.set(title.toLowerCase(), entry.id);

/** A verse that prints the term's Portuguese word weighs this much more. */
const NAMES_TERM = 0.25;

function rankVerses(groups: Group[], lemma: string | undefined): { ranked: TermVerse[]; scores: Map<number, number> } {
  // Per source, a verse's best weight in any of its headings (a narrow heading weighs a little more;
  // the English headings merged in from the side, "Easter" into "Passover", less); summed over sources.
  const bySource = new Map<number, Map<string, number>>();
  const headingCount = new Map<number, number>();
  const largest = Math.max(...groups.map((group) => group.verses.length));
  for (const group of groups) {
    const main = 0.5 + (0.5 * group.verses.length) / largest;
    for (const h of group.headings) {
      const narrow = 1 / Math.sqrt(h.weighted.size);
      for (const [verse, weight] of h.weighted) {
        const sourcesOfVerse = bySource.get(verse) ?? new Map<string, number>();
        sourcesOfVerse.set(h.src, Math.max(sourcesOfVerse.get(h.src) ?? 0, main * weight * (0.8 + 0.2 * narrow)));
        bySource.set(verse, sourcesOfVerse);
        headingCount.set(verse, (headingCount.get(verse) ?? 0) + 1);
      }
    }
  }
  const names = (verse: number) => (lemma !== undefined && shareIn(lemma, [verse]) > 0 ? NAMES_TERM : 0);
  const scores = new Map<number, number>();
  for (const [verse, sourcesOfVerse] of bySource) {
    scores.set(verse, [...sourcesOfVerse.values()].reduce((a, b) => a + b, 0) + 0.05 * headingCount.get(verse)! + names(verse));
  }
  const score = (verse: number) => scores.get(verse)!;
  const ranked = [...bySource.keys()]
    .sort((a, b) => score(b) - score(a) || a - b)
    .slice(0, TERM_VERSES)
    .map((verse): TermVerse => [refs[verse]!, [...bySource.get(verse)!.keys()].sort().join(""), headingCount.get(verse)!]);
  return { ranked, scores };
}

/** The stems the verses a term's headings cite share (the 40 best ranked), weighted by share × idf. */
function salientStems(groups: Group[], scores: Map<number, number>): [string, number][] {
  const cited = new Set(groups.flatMap((group) => group.headings.flatMap((h) => h.cited)));
  const list = [...cited].sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || a - b).slice(0, 40);
  const counts = new Map<string, number>();
  for (const verse of list) for (const stem of stemsOf[verse]!) counts.set(stem, (counts.get(stem) ?? 0) + 1);
  const minCount = list.length <= 2 ? 1 : 2;
  return [...counts.entries()]
    .filter(([stem, count]) => count >= minCount && stem.length >= 3)
    .map(([stem, count]): [string, number] => [stem, round((count / list.length) * idf(stem))])
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, SALIENT);
}

const termRecords: TermRecord[] = [];
for (const entry of merged.values()) {
  const list = entry.groups.flatMap((group) => group.headings);
  const { ranked: verses, scores } = rankVerses(entry.groups, [...entry.pt.keys()][0]);
  if (verses.length === 0) continue;
  const see = new Set<string>();
  for (const title of new Set(list.map((h) => h.title))) {
    for (const target of naveSee.get(title) ?? []) {
      const id = termOfTitle.get(target.toLowerCase());
      if (id && id !== entry.id) see.add(id);
    }
  }
  termRecords.push({
    kind: "term",
    id: entry.id,
    pt: [...entry.pt.entries()].sort((a, b) => b[1] - a[1]).map(([lemma, weight]) => [lemma, round(weight), corpusVerses(lemma)]),
    en: [...new Set(entry.groups.flatMap((group) => group.titles))],
    enSyn: [...new Set(entry.groups.flatMap((group) => group.bridge.english))].slice(0, 12),
    verses: verses.slice(0, TERM_KEY_VERSES),
    salient: salientStems(entry.groups, scores),
    ...(see.size > 0 ? { see: [...see] } : {}),
  });
  detailRecords.push({ kind: "detail", id: `term:${entry.id}`, verses, headings: list.map(headingRecord) });
}
termRecords.sort((a, b) => (a.id < b.id ? -1 : 1));

// ---------------------------------------------------------------------------------------------
// Output.

mkdirSync(OUT, { recursive: true });
const sizes: Record<string, number> = {};
function writeRecords(name: string, records: object[]): void {
  const text = `${records.map((record) => JSON.stringify(record)).join("\n")}\n`;
  const data = gzipSync(text, { level: 9 });
  writeFileSync(join(OUT, name), data);
  sizes[name] = data.length;
}
writeRecords("people.jsonl.gz", personRecords);
writeRecords("places.jsonl.gz", placeRecords);
writeRecords("events.jsonl.gz", eventRecords);
writeRecords("terms.jsonl.gz", termRecords);
writeRecords("details.jsonl.gz", detailRecords);
const keyRows = formatKeyRows({ people: personRecords, places: placeRecords, events: eventRecords, terms: termRecords });
writeFileSync(join(OUT, "index.tsv.gz"), gzipSync(keyRows, { level: 9 }));
sizes["index.tsv.gz"] = gzipSync(keyRows, { level: 9 }).length;
copyFileSync(join(THEOGRAPHIC, "LICENSE"), join(OUT, "LICENSE.theographic"));
copyFileSync(join(NAVES, "LICENSE"), join(OUT, "LICENSE.naves"));
copyFileSync(join(shared, "lexicon", "LICENSE.own-pt"), join(OUT, "LICENSE.own-pt"));
// The WordNet 3.0 licence, as Debian's wordnet-base states it.
const debianCopyright = readFileSync("/usr/share/doc/wordnet-base/copyright", "utf8");
const wordnetLicence = /^License: WordNet3\.0\n((?: .*\n)+)/m.exec(debianCopyright)?.[1];
if (!wordnetLicence) throw new Error("licença do WordNet 3.0 não encontrada em /usr/share/doc/wordnet-base/copyright");
writeFileSync(join(OUT, "LICENSE.wordnet"), wordnetLicence.replace(/^ \.$/gm, "").replace(/^ /gm, ""));
for (const file of ["LICENSE.theographic", "LICENSE.naves", "LICENSE.own-pt"]) chmodSync(join(OUT, file), 0o644);

const aligned = (records: { names: NameRecord[] }[]) => records.filter((record) => record.names.length > 0).length;
const example = (id: string) => {
  const record = [...personRecords, ...placeRecords].find((r) => r.id === id);
  return record ? `${record.en} → ${record.names.map((name) => name.pt).join(", ")}` : "";
};
const summary = {
  people: { total: personRecords.length, aligned: aligned(personRecords), dropped: personRecords.length - aligned(personRecords) },
  places: { total: placeRecords.length, aligned: aligned(placeRecords), dropped: placeRecords.length - aligned(placeRecords) },
  events: { total: eventRecords.length, withPortugueseLabel: eventLabels },
  headings: {
    torrey: headings.filter((h) => h.src === "t").length,
    naves: headings.filter((h) => h.src === "n").length,
    easton: headings.filter((h) => h.src === "e").length,
    aboutPeopleOrPlaces: attached,
  },
  terms: {
    englishGroups: bridged.length,
    bridgedByWordnet: bridged.length - unbridged.length,
    namedFromCorpus: unbridged.filter((group) => alignment.has(`term:${group.key}`)).length,
    withoutPortuguese: termRecords.filter((term) => term.pt.length === 0).length,
    merged: termRecords.length,
    mergedFromSeveralSources: [...merged.values()].filter((entry) => new Set(entry.groups.flatMap((group) => group.headings.map((h) => h.src))).size > 1).length,
  },
  references: { expanded: invalid.spans, notInCorpus: invalid.references },
  openWordnetPt: { rowsRead: ownRows, atMovedOffset: ownMoved },
  bytes: sizes,
  examples: ["moses_2108", "aaron_1", "melchisedec_1991", "esther_1343", "miriam_2087", "peter_2745", "paul_2479", "bethel_202"].map(example),
  alignMs,
  buildMs: Date.now() - started,
};
writeFileSync(join(OUT, "build-summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary, null, 2));
