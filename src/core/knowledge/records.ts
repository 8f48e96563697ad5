/**
 * The records of resources/knowledge/ (one JSON object a line, gzipped; written by
 * scripts/build-knowledge.ts) and their parser: every field checked, a bad line named by its
 * number. Verses are written as the data files write them, `BOOK C:V`, or `BOOK C:V-W` for a run
 * of verses in one chapter.
 */
import { parseVerseId } from "../bible/books.js";

/**
 * A Portuguese name learned from the corpus: the form it prints, the English name, the
 * confidence, and the share of the word's uses the corpus prints in lowercase (0..1; capitalised
 * uses counted away from a sentence's start only).
 */
export interface NameRecord {
  pt: string;
  en: string;
  c: number;
  lc: number;
}

/** A heading of a topical source with its verses: Nave's (`n`), Torrey's (`t`) or Easton's (`e`). */
export interface HeadingRecord {
  src: "n" | "t" | "e";
  title: string;
  sub: string;
  verses: string[];
  /** A word-by-word Portuguese gloss of the sub-heading, when every word has one. */
  gloss?: string;
}

export interface EntityRecord {
  id: string;
  /** The English name (the data's display title). */
  en: string;
  names: NameRecord[];
  /** The verses where the entity enters the story and acts (Easton's first citations among its own verses), in canonical order. */
  key: string[];
  /** How many verses name it. */
  n: number;
}

export interface PersonRecord extends EntityRecord {
  kind: "person";
  gender: "m" | "f" | "";
  father: string[];
  mother: string[];
  partners: string[];
  children: string[];
  siblings: string[];
}

export interface PlaceRecord extends EntityRecord {
  kind: "place";
  /** The data's feature type in English ("City", "Mountain", "Region", "Water"…), or "". */
  type: string;
  lat?: number;
  lon?: number;
}

export interface EventRecord {
  kind: "event";
  id: string;
  en: string;
  /** A word-by-word Portuguese label (aligned names, WordNet lemmas), when every word has one. */
  pt?: string;
  verses: string[];
  people: string[];
  places: string[];
}

/** A verse of a term with who cites it: the sources' letters ("nte") and how many headings. */
export type TermVerse = [verse: string, sources: string, headings: number];

export interface TermRecord {
  kind: "term";
  id: string;
  /** Portuguese lemmas with their weights and how many verses of the corpus hold them, the best first (none when WordNet has none and no name was learned). */
  pt: [lemma: string, weight: number, verses: number][];
  /** The English headings merged here. */
  en: string[];
  /** English words of the WordNet synsets the lemmas came from ("yahweh" for "Jehovah"). */
  enSyn: string[];
  /** The first verses, ranked: cited by more sources, earlier and by narrower headings first (the rest in the details). */
  verses: TermVerse[];
  /** Stems the term's verses share, weighted by how specific they are (what the verses say in Portuguese). */
  salient: [stem: string, weight: number][];
  /** Terms Nave's "-See X" points to. */
  see?: string[];
}

/**
 * What is read only when asked (resources/knowledge/details.jsonl.gz): every verse that names a
 * person or place and the topical headings about it; a term's whole ranking and its headings.
 */
export interface DetailRecord {
  kind: "detail";
  id: string;
  mentions?: string[];
  verses?: TermVerse[];
  headings?: HeadingRecord[];
}

export type KnowledgeRecord = PersonRecord | PlaceRecord | EventRecord | TermRecord | DetailRecord;
export type KnowledgeKind = KnowledgeRecord["kind"];

/** A record that breaks the format, with the line it is on. */
export class KnowledgeFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${file}, linha ${line}: ${detail}`);
    this.name = "KnowledgeFileError";
  }
}

/** `BOOK C:V` or `BOOK C:V-W` → its first verse id and its last verse number, or undefined. */
export function parseVerseRun(text: string): { book: string; chapter: number; verse: number; verseEnd: number } | undefined {
  const match = /^(.+ \d+:)(\d+)(?:-(\d+))?$/.exec(text);
  if (!match) return undefined;
  const start = parseVerseId(`${match[1]}${match[2]}`);
  if (!start) return undefined;
  const verseEnd = match[3] === undefined ? start.verse : Number(match[3]);
  return verseEnd >= start.verse ? { ...start, verseEnd } : undefined;
}

/** Every verse of a run, `BOOK C:V` each (at most `cap`). */
export function expandVerseRun(text: string, cap = Infinity): string[] {
  const run = parseVerseRun(text);
  if (!run) return [];
  const out: string[] = [];
  for (let verse = run.verse; verse <= run.verseEnd && out.length < cap; verse++) out.push(`${run.book} ${run.chapter}:${verse}`);
  return out;
}

const isString = (value: unknown): value is string => typeof value === "string";
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);
const isRuns = (value: unknown): value is string[] => isStrings(value) && value.every((run) => parseVerseRun(run) !== undefined);
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

function checkHeadings(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return "headings/topics não é uma lista";
  for (const heading of value as Record<string, unknown>[]) {
    if (!["n", "t", "e"].includes(heading.src as string) || !isString(heading.title) || !isString(heading.sub)) return "cabeçalho sem src/title/sub";
    if (!isRuns(heading.verses)) return `versículos inválidos no cabeçalho ${String(heading.title)}`;
    if (heading.gloss !== undefined && !isString(heading.gloss)) return "gloss não é texto";
  }
  return undefined;
}

function checkEntity(record: Record<string, unknown>): string | undefined {
  if (!Array.isArray(record.names)) return "names não é uma lista";
  for (const name of record.names as Record<string, unknown>[]) {
    if (!isString(name.pt) || !isString(name.en) || !isNumber(name.c) || !isNumber(name.lc)) return "nome sem pt/en/c/lc";
  }
  if (!isRuns(record.key)) return "versículos inválidos em key";
  if (!isNumber(record.n)) return "n ausente";
  return undefined;
}

function checkTermVerses(verses: unknown): string | undefined {
  if (verses === undefined) return undefined;
  const ok = Array.isArray(verses) && verses.every((v) => Array.isArray(v) && isString(v[0]) && parseVerseId(v[0]) !== undefined && isString(v[1]) && isNumber(v[2]));
  return ok ? undefined : "verses inválidos";
}

/** What is wrong with a record of this kind, or undefined when it is well formed. */
function problem(kind: KnowledgeKind, record: Record<string, unknown>): string | undefined {
  if (record.kind !== kind) return `esperado kind "${kind}"`;
  if (!isString(record.id) || record.id === "") return "id ausente";
  switch (kind) {
    case "person":
      if (!isString(record.en) || !["m", "f", ""].includes(record.gender as string)) return "en/gender inválidos";
      for (const field of ["father", "mother", "partners", "children", "siblings"]) if (!isStrings(record[field])) return `${field} não é uma lista de ids`;
      return checkEntity(record);
    case "place":
      if (!isString(record.en) || !isString(record.type)) return "en/type inválidos";
      if ((record.lat !== undefined && !isNumber(record.lat)) || (record.lon !== undefined && !isNumber(record.lon))) return "lat/lon inválidos";
      return checkEntity(record);
    case "event":
      if (!isString(record.en) || (record.pt !== undefined && !isString(record.pt))) return "en/pt inválidos";
      if (!isRuns(record.verses) || !isStrings(record.people) || !isStrings(record.places)) return "verses/people/places inválidos";
      return undefined;
    case "term": {
      const pairs = (value: unknown) => Array.isArray(value) && value.every((pair) => Array.isArray(pair) && isString(pair[0]) && isNumber(pair[1]));
      if (!pairs(record.pt) || !(record.pt as unknown[][]).every((triple) => isNumber(triple[2])) || !pairs(record.salient)) return "pt/salient inválidos";
      if (!isStrings(record.en) || !isStrings(record.enSyn)) return "en/enSyn inválidos";
      if (record.see !== undefined && !isStrings(record.see)) return "see inválido";
      return checkTermVerses(record.verses) ?? (Array.isArray(record.verses) ? undefined : "verses ausente");
    }
    case "detail":
      if (record.mentions !== undefined && !isRuns(record.mentions)) return "mentions inválido";
      return checkTermVerses(record.verses) ?? checkHeadings(record.headings);
  }
}

/** One record of a resource file (one line of JSON), checked; `file` and `lineNumber` (1-based) name it in errors. */
export function parseKnowledgeRecord<K extends KnowledgeKind>(kind: K, line: string, file: string, lineNumber: number): Extract<KnowledgeRecord, { kind: K }> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new KnowledgeFileError(file, lineNumber, "não é JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new KnowledgeFileError(file, lineNumber, "não é um objeto");
  const wrong = problem(kind, value as Record<string, unknown>);
  if (wrong) throw new KnowledgeFileError(file, lineNumber, wrong);
  return value as Extract<KnowledgeRecord, { kind: K }>;
}

/** The lines of a resource file that hold records (blank lines and `#` comments are none). */
export function recordLines(text: string): string[] {
  return text.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#"));
}

/** The records of one resource file's text (JSON Lines), checked; `file` names it in errors. */
export function parseKnowledgeRecords<K extends KnowledgeKind>(kind: K, text: string, file: string): Extract<KnowledgeRecord, { kind: K }>[] {
  const records: Extract<KnowledgeRecord, { kind: K }>[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "" || line.startsWith("#")) continue;
    records.push(parseKnowledgeRecord(kind, line, file, i + 1));
  }
  return records;
}
