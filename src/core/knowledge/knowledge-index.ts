/**
 * `KnowledgeIndex`: who a name is, where a place is, what a word means and which verses treat
 * it, looked up from resources/knowledge/ on every question. The keys (`key-rows.ts`) are read at
 * load; a record is parsed the first time a lookup returns it.
 *
 * Names are met as people type them, by the analysis and never by a list of spellings: the
 * corpus's form folded ("moises" → Moisés), the spelling key (`name-key.ts`: "Melquisedec" →
 * Melquisedeque, "Esther" → Ester), then the edit distance against the known keys of about the
 * same length (`maxEditsFor`). A name fires on a word capitalised away from a sentence's start,
 * or on another word that is no ordinary Portuguese word: a function word never; a name the
 * corpus mostly prints in lowercase ("Pai", "Sul") never; a word of the dictionary (`isWord`, the
 * project's Portuguese stems, which list "Davi" and "Moisés" too) only when it is exactly a name
 * the corpus seldom prints in lowercase ("moises", not "ai" nor "tola"), and no other spelling or
 * typo of one.
 *
 * Terms are met by their Portuguese lemmas (a word as the lemma, its plural, or a form sharing a
 * stem of five letters or more: "tatuagens" → tatuagem, "o Reino de Deus"; not "Pedro" → pedra),
 * by a one-word lemma folded or mistyped ("cremacao"), by the spelling key of their English words
 * ("Nefilins" → Nephilim, "Javé" → Yahweh, Jehovah's WordNet synonym), and, when nothing else
 * matches, by the words their verses share ("consultar os mortos"). Lookups are map reads; the
 * edit distance runs only over the keys of one length and first letter.
 */
import { foldAccents } from "../analysis/fold.js";
import { isStopword } from "../analysis/stopwords.js";
import { contentWords, foldName, parseKeyRows, type KeyRows, type LemmaRow, type NameRow, type TermKeyRow } from "./key-rows.js";
import { boundedDistance, maxEditsFor, nameKey } from "./name-key.js";
import {
  expandVerseRun,
  parseKnowledgeRecord,
  recordLines,
  type DetailRecord,
  type EventRecord,
  type HeadingRecord,
  type PersonRecord,
  type PlaceRecord,
  type TermRecord,
  type TermVerse,
} from "./records.js";

export interface KnowledgeOptions {
  /** Whether a lowercase, accent-folded word is an ordinary Portuguese word (the dictionary's stems). */
  isWord?: (foldedWord: string) => boolean;
  /** The text of details.jsonl (every mention, the headings), read the first time it is asked for. */
  details?: () => Promise<string>;
}

/** A file's text, or how to get it the first time it is needed (a record file is read when a lookup first returns one of its records). */
export type TextSource = string | (() => string);

/** The text of the files of resources/knowledge/ (gunzipped). */
export interface KnowledgeTexts {
  keys: TextSource;
  people: TextSource;
  places: TextSource;
  events: TextSource;
  terms: TextSource;
}

/** How a match was made, from the surest. */
export type MatchHow = "name" | "spelling" | "typo" | "english" | "lemma" | "salient" | "label";

export interface KnowledgeMatch {
  kind: "person" | "place" | "event" | "term";
  id: string;
  /** Its name in Portuguese (the corpus's form, the best lemma), else the English. */
  label: string;
  english: string;
  /** The words of the query that matched. */
  matched: string;
  how: MatchHow;
  /** 0..1. */
  confidence: number;
  /** Key verses, `BOOK C:V`, in the order to show them. */
  verses: string[];
}

export interface FamilyMember {
  id: string;
  /** The Portuguese name the corpus gives them, else the English. */
  name: string;
  gender: "m" | "f" | "";
}

export interface PersonMatch extends KnowledgeMatch {
  kind: "person";
  gender: "m" | "f" | "";
  /** Verses naming them. */
  mentions: number;
  family: { father: FamilyMember[]; mother: FamilyMember[]; partners: FamilyMember[]; children: FamilyMember[]; siblings: FamilyMember[] };
}

export interface PlaceMatch extends KnowledgeMatch {
  kind: "place";
  /** The data's feature type, in English ("City", "Mountain", "Region", "Water"…), or "". */
  type: string;
  mentions: number;
  lat?: number;
  lon?: number;
}

export interface TermMatch extends KnowledgeMatch {
  kind: "term";
  /** Portuguese lemmas, the best first. */
  lemmas: string[];
  /** The first verses with who cites them (Nave's `n`, Torrey's `t`, Easton's `e`) and in how many headings. */
  cited: TermVerse[];
  /** Terms Nave's "-See" points to (ids). */
  see: string[];
}

export interface EventMatch extends KnowledgeMatch {
  kind: "event";
  people: string[];
  places: string[];
}

export type AnyMatch = PersonMatch | PlaceMatch | TermMatch | EventMatch;

/** What `details` gives: every verse naming a person or place, a term's whole ranking, the headings. */
export interface KnowledgeDetails {
  mentions: string[];
  verses: TermVerse[];
  headings: HeadingRecord[];
}

// A match's confidence by how it was made (times the key's own confidence).
const HOW_FACTOR: Readonly<Record<MatchHow, number>> = { name: 1, lemma: 1, spelling: 0.9, english: 0.85, typo: 0.75, label: 0.8, salient: 0.45 };
/** Each further edit of a typo costs this much more. */
const TYPO_STEP = 0.1;
/** A name the corpus prints in lowercase this often is an ordinary word ("Pai", "Filho")… */
const LOWERCASE_NAME = 0.5;
/** …and so is one it prints in lowercase this often when the dictionary has the word ("ai", "tola"). */
const LOWERCASE_WORD = 0.1;
/** At most this many words make a name ("Bete-Semes" typed "Bete Semes"). */
const MAX_NAME_WORDS = 3;
/** A stem this long is one word's family ("santificação", "santificado"); a shorter one may join unrelated words ("pedra", "Pedro"). */
const SAFE_STEM = 5;
/** Terms are sought by the words their verses share when no term is named with this confidence. */
const DESCRIPTION_BELOW = 0.6;
/** A term found by the words its verses share needs this many of the query's words. */
const MIN_SALIENT_WORDS = 2;
/** Key verses of an event. */
const EVENT_VERSES = 8;

interface Token {
  text: string;
  capitalised: boolean;
  sentenceStart: boolean;
}

/** The words of a text with their case and whether they open a sentence. */
function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(/\p{L}+(?:[-'’]\p{L}+)*/gu)) {
    const before = text.slice(0, match.index).replace(/[\s"'“”‘’«»(¿¡-]+$/u, "");
    tokens.push({ text: match[0], capitalised: /^\p{Lu}/u.test(match[0]), sentenceStart: before === "" || /[.!?:;]$/.test(before) });
  }
  return tokens;
}

/** The singulars a folded plural may have ("tatuagens" → tatuagem, "perdoes" → perdao, "animais" → animal), the word first. */
export function singulars(word: string): string[] {
  const forms = [word];
  if (word.endsWith("ns")) forms.push(`${word.slice(0, -2)}m`);
  if (/(oes|aes|aos)$/.test(word)) forms.push(`${word.slice(0, -3)}ao`);
  if (word.endsWith("is")) forms.push(`${word.slice(0, -2)}l`);
  if (word.endsWith("es")) forms.push(word.slice(0, -2));
  if (word.endsWith("s")) forms.push(word.slice(0, -1));
  return forms;
}

/** Whether a typed word (folded) is the lemma's word or its plural ("tatuagens", "perdões", "animais"). */
export function isFormOf(word: string, lemma: string): boolean {
  if (word === lemma) return true;
  if (word === `${lemma}s` || word === `${lemma}es`) return true;
  if (lemma.endsWith("m") && word === `${lemma.slice(0, -1)}ns`) return true;
  if (lemma.endsWith("ao") && ["oes", "aes", "aos"].some((ending) => word === `${lemma.slice(0, -2)}${ending}`)) return true;
  if (lemma.endsWith("l") && word === `${lemma.slice(0, -1)}is`) return true;
  return false;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Keys bucketed by length and first letter, for the edit distance. */
class KeyBuckets {
  private readonly buckets = new Map<string, Set<string>>();

  add(key: string): void {
    if (key.length === 0) return;
    const bucket = `${key.length}:${key[0]}`;
    let set = this.buckets.get(bucket);
    if (!set) this.buckets.set(bucket, (set = new Set()));
    set.add(key);
  }

  /** Known keys within the edits the key's length allows (not the key itself), nearest first. */
  near(key: string): { key: string; distance: number }[] {
    const max = maxEditsFor(key.length);
    if (max === 0) return [];
    const found: { key: string; distance: number }[] = [];
    for (let length = key.length - max; length <= key.length + max; length++) {
      for (const other of this.buckets.get(`${length}:${key[0]}`) ?? []) {
        if (other === key) continue;
        const distance = boundedDistance(key, other, max);
        if (distance <= max) found.push({ key: other, distance });
      }
    }
    return found.sort((a, b) => a.distance - b.distance || (a.key < b.key ? -1 : 1));
  }
}

/** A file's records: the file read the first time one is needed, each record parsed the first time it is. */
class LazyRecords<R extends PersonRecord | PlaceRecord | EventRecord | TermRecord> {
  private readonly parsed = new Map<number, R>();
  private lines$?: readonly string[];

  constructor(
    private readonly kind: R["kind"],
    private readonly file: string,
    private readonly source: TextSource,
  ) {}

  get lines(): readonly string[] {
    this.lines$ ??= recordLines(typeof this.source === "string" ? this.source : this.source());
    return this.lines$;
  }

  get(line: number): R {
    let record = this.parsed.get(line);
    if (!record) {
      const text = this.lines[line];
      if (text === undefined) throw new Error(`${this.file}: não há registro ${line + 1}`);
      record = parseKnowledgeRecord(this.kind, text, this.file, line + 1) as R;
      this.parsed.set(line, record);
    }
    return record;
  }
}

/** The lookup maps of index.tsv's rows. */
class KeyMaps {
  readonly namesByFold = new Map<string, NameRow[]>();
  readonly namesByKey = new Map<string, NameRow[]>();
  readonly nameKeys = new KeyBuckets();
  readonly lemmas = new Map<string, LemmaRow[]>();
  readonly lemmasByWord = new Map<string, LemmaRow[]>();
  readonly termFolds = new Map<string, TermKeyRow[]>();
  readonly termFoldBuckets = new KeyBuckets();
  readonly termEnglish = new Map<string, TermKeyRow[]>();
  readonly termEnglishBuckets = new KeyBuckets();
  readonly salientRows: () => { line: number; weight: number; stem: string }[];
  readonly eventStems = new Map<string, number[]>();
  readonly eventRows = new Map<number, { stems: string[]; names: string[] }>();

  constructor(keys: KeyRows) {
    for (const row of keys.names) {
      if (!row.english) push(this.namesByFold, row.fold, row);
      push(this.namesByKey, row.key, row);
      this.nameKeys.add(row.key);
    }
    for (const row of keys.lemmas) {
      if (row.stems.length === 0) continue;
      push(this.lemmas, row.stems[0]!, row);
      push(this.lemmasByWord, row.words[0]!, row);
      // A one-word lemma is also met folded or mistyped ("cremacao").
      if (row.words.length === 1 && !/\s/.test(row.lemma.trim())) {
        const fold = foldName(row.lemma);
        push(this.termFolds, fold, { line: row.line, weight: row.weight, form: row.lemma, key: fold, english: false });
        this.termFoldBuckets.add(fold);
      }
    }
    for (const row of keys.termKeys) {
      push(this.termEnglish, row.key, row);
      this.termEnglishBuckets.add(row.key);
    }
    this.salientRows = keys.salient;
    for (const row of keys.events) {
      this.eventRows.set(row.line, row);
      for (const stem of row.stems) push(this.eventStems, stem, row.line);
    }
  }
}

type Entity = { kind: "person"; line: number } | { kind: "place"; line: number };

export class KnowledgeIndex {
  private readonly people: LazyRecords<PersonRecord>;
  private readonly places: LazyRecords<PlaceRecord>;
  private readonly events: LazyRecords<EventRecord>;
  private readonly terms: LazyRecords<TermRecord>;
  private readonly keySource: KeyRows | (() => KeyRows);
  private maps$?: KeyMaps;
  private salient$?: Map<string, { line: number; weight: number }[]>;
  private ids$?: { entities: Map<string, Entity>; terms: Map<string, number> };
  private readonly isWord: (foldedWord: string) => boolean;
  private readonly loadDetails?: () => Promise<string>;
  private details$?: Promise<Map<string, { text: string; line: number }>>;

  constructor(keys: KeyRows | (() => KeyRows), texts: Omit<KnowledgeTexts, "keys">, options: KnowledgeOptions = {}) {
    this.isWord = options.isWord ?? (() => false);
    this.loadDetails = options.details;
    this.people = new LazyRecords("person", "people.jsonl", texts.people);
    this.places = new LazyRecords("place", "places.jsonl", texts.places);
    this.events = new LazyRecords("event", "events.jsonl", texts.events);
    this.terms = new LazyRecords("term", "terms.jsonl", texts.terms);
    this.keySource = keys;
  }

  /** The lookup maps, built from the keys the first time a lookup needs them (a start that asks no question of knowledge never parses index.tsv). */
  private get maps(): KeyMaps {
    this.maps$ ??= new KeyMaps(typeof this.keySource === "function" ? this.keySource() : this.keySource);
    return this.maps$;
  }

  /** Ids to lines, read from each line's start (the build writes "kind" then "id" first), the first time one is asked for. */
  private idsOf(): { entities: Map<string, Entity>; terms: Map<string, number> } {
    if (!this.ids$) {
      const idOf = (line: string) => /^\{"kind":"[a-z]+","id":"([^"]+)"/.exec(line)?.[1];
      const entities = new Map<string, Entity>();
      const terms = new Map<string, number>();
      this.people.lines.forEach((line, i) => entities.set(idOf(line) ?? `?${i}`, { kind: "person", line: i }));
      this.places.lines.forEach((line, i) => entities.set(idOf(line) ?? `?${i}`, { kind: "place", line: i }));
      this.terms.lines.forEach((line, i) => terms.set(idOf(line) ?? `?${i}`, i));
      this.ids$ = { entities, terms };
    }
    return this.ids$;
  }

  /** The index of the files' text (`keys` is index.tsv). */
  static parse(texts: KnowledgeTexts, options: KnowledgeOptions = {}): KnowledgeIndex {
    const { keys } = texts;
    return new KnowledgeIndex(typeof keys === "string" ? parseKeyRows(keys, "index.tsv") : () => parseKeyRows(keys(), "index.tsv"), texts, options);
  }

  /** How many records of each kind. */
  get size(): { people: number; places: number; events: number; terms: number } {
    return { people: this.people.lines.length, places: this.places.lines.length, events: this.events.lines.length, terms: this.terms.lines.length };
  }

  // -------------------------------------------------------------------------------------------
  // People and places

  /** The people a name (as typed after "quem foi…") may be, the likeliest first. */
  person(name: string): PersonMatch[] {
    return this.names(name).filter((match): match is PersonMatch => match.kind === "person");
  }

  /** The places a name may be, the likeliest first. */
  place(name: string): PlaceMatch[] {
    return this.names(name).filter((match): match is PlaceMatch => match.kind === "place");
  }

  private names(text: string): (PersonMatch | PlaceMatch)[] {
    // The name is what was asked: its case is what the asker typed, not a sentence's start.
    return this.nameMatches(tokensOf(text).map((token) => ({ ...token, sentenceStart: false })), true);
  }

  /** Names in a run of tokens: the longest name at each place first. */
  private nameMatches(tokens: Token[], asked = false): (PersonMatch | PlaceMatch)[] {
    const found = new Map<string, PersonMatch | PlaceMatch>();
    for (let start = 0; start < tokens.length; start++) {
      for (let length = Math.min(MAX_NAME_WORDS, tokens.length - start); length >= 1; length--) {
        const matches = this.nameRun(tokens.slice(start, start + length), asked);
        if (matches.length === 0) continue;
        for (const match of matches) if ((found.get(match.id)?.confidence ?? -1) < match.confidence) found.set(match.id, match);
        start += length - 1;
        break;
      }
    }
    return [...found.values()].sort(byConfidence);
  }

  /** `asked`: the run is what a "quem foi"/"onde fica" asks about, so a word is meant as a name. */
  private nameRun(run: Token[], asked: boolean): (PersonMatch | PlaceMatch)[] {
    const surface = run.map((token) => token.text).join(" ");
    const capitalised = run.every((token) => token.capitalised);
    // Every word of a name of several words is capitalised; a one-word name may be typed in lowercase.
    if (run.length > 1 && !capitalised) return [];
    const folded = foldName(surface);
    const lower = foldAccents(surface.toLowerCase());
    // A lowercase function word is never a name ("da" is not "Dã").
    if (folded.length < 2 || (!capitalised && isStopword(lower))) return [];
    const firmlyCapitalised = capitalised && !run[0]!.sentenceStart;
    const ordinary = run.length === 1 && this.isWord(lower);
    const results = new Map<string, PersonMatch | PlaceMatch>();
    // Not firmly capitalised, a name is taken only when the corpus does not print the word mostly
    // in lowercase ("Pai", "Sul"), nor often when the dictionary has it ("ai", "tola"; "moisés",
    // never printed in lowercase, stays a name).
    const plain = (row: NameRow) => row.english || (row.lowercase < LOWERCASE_NAME && (row.lowercase < LOWERCASE_WORD || !ordinary));
    const accept = (row: NameRow, how: MatchHow, distance = 0) => {
      if (!firmlyCapitalised && !plain(row)) return;
      const confidence = row.confidence * HOW_FACTOR[how] * (1 - TYPO_STEP * Math.max(0, distance - 1));
      const match = this.entityMatch(row, surface, how, confidence);
      if ((results.get(match.id)?.confidence ?? -1) < match.confidence) results.set(match.id, match);
    };
    // Exactly a name the corpus prints capitalised: a name, even when the dictionary has the word too ("Davi").
    const exact = this.maps.namesByFold.get(folded) ?? [];
    for (const row of exact) accept(row, "name");
    if (results.size > 0) return [...results.values()];
    // An ordinary word, typed in lowercase or opening the sentence, is no name's other spelling nor a
    // typo of one; unless it is asked about as a name ("armagedon onde fica?"), where it may be the
    // other spelling of one, still never a typo.
    if (!firmlyCapitalised && ordinary && !asked) return [];
    const key = nameKey(surface);
    for (const row of this.maps.namesByKey.get(key) ?? []) accept(row, row.english ? "english" : "spelling");
    if (results.size > 0 || (!firmlyCapitalised && ordinary)) return [...results.values()];
    for (const { key: near, distance } of this.maps.nameKeys.near(key)) {
      for (const row of this.maps.namesByKey.get(near) ?? []) accept(row, "typo", distance);
      if (results.size > 0) break;
    }
    return [...results.values()];
  }

  private entityMatch(row: NameRow, matched: string, how: MatchHow, confidence: number): PersonMatch | PlaceMatch {
    const entity = row.kind === "person" ? this.people.get(row.line) : this.places.get(row.line);
    const label = row.english ? (entity.names[0]?.pt ?? row.form) : row.form;
    const base = { id: entity.id, label, english: entity.en, matched, how, confidence: round(confidence), verses: entity.key, mentions: entity.n };
    if (entity.kind === "place") return { ...base, kind: "place", type: entity.type, ...(entity.lat !== undefined ? { lat: entity.lat, lon: entity.lon } : {}) };
    const members = (ids: readonly string[]): FamilyMember[] =>
      ids.map((id) => {
        const other = this.entity(id);
        return { id, name: other?.names[0]?.pt ?? other?.en ?? id, gender: other?.kind === "person" ? other.gender : "" };
      });
    return {
      ...base,
      kind: "person",
      gender: entity.gender,
      family: {
        father: members(entity.father),
        mother: members(entity.mother),
        partners: members(entity.partners),
        children: members(entity.children),
        siblings: members(entity.siblings),
      },
    };
  }

  // -------------------------------------------------------------------------------------------
  // Terms

  /** The terms the words name ("tatuagem", "o Reino de Deus", "Nefilins"), or describe ("consultar os mortos"), the likeliest first. */
  term(words: string): TermMatch[] {
    const found = new Map<number, TermMatch>();
    const add = (line: number, matched: string, how: MatchHow, weight: number) => {
      const confidence = round(weight * HOW_FACTOR[how]);
      if ((found.get(line)?.confidence ?? -1) < confidence) found.set(line, this.termMatch(line, matched, how, confidence));
    };
    const query = contentWords(words);
    const covered = new Set<number>();
    // Lemmas, longest first at each place.
    for (let i = 0; i < query.length; i++) {
      // Lemmas by the word's stem, and by the word or its singular (the stemmer may part "tatuagens" from "tatuagem").
      const pool = new Set([...(this.maps.lemmas.get(query[i]!.stem) ?? []), ...singulars(query[i]!.fold).flatMap((form) => this.maps.lemmasByWord.get(form) ?? [])]);
      const candidates = [...pool].filter((row) =>
        row.stems.every((stem, k) => {
          const typed = query[i + k];
          return typed !== undefined && (isFormOf(typed.fold, row.words[k]!) || (typed.stem === stem && stem.length >= SAFE_STEM));
        }),
      );
      if (candidates.length === 0) continue;
      const longest = Math.max(...candidates.map((row) => row.stems.length));
      const matched = query.slice(i, i + longest).map((entry) => entry.word).join(" ");
      for (const row of candidates) if (row.stems.length === longest) add(row.line, matched, "lemma", row.weight);
      for (let k = 0; k < longest; k++) covered.add(i + k);
    }
    // Words no lemma took: a one-word lemma folded ("cremacao") or an English word's spelling ("Nefilins", "Yahweh"), then a
    // typo of either; not for a word that is a name the corpus prints ("Arão" is not the English "arm").
    query.forEach((entry, i) => {
      if (covered.has(i)) return;
      const fold = foldName(entry.word);
      const isName = (row: NameRow) => !row.english && row.lowercase < LOWERCASE_NAME;
      if ((this.maps.namesByFold.get(fold) ?? []).some(isName) || (this.maps.namesByKey.get(nameKey(entry.word)) ?? []).some(isName)) return;
      const key = nameKey(entry.word);
      let hit = false;
      for (const row of this.maps.termFolds.get(fold) ?? []) {
        hit = true;
        add(row.line, entry.word, "spelling", row.weight);
      }
      for (const row of this.maps.termEnglish.get(key) ?? []) {
        hit = true;
        add(row.line, entry.word, "english", row.weight);
      }
      if (hit || this.isWord(entry.fold)) return;
      const typo = (buckets: KeyBuckets, rows: Map<string, TermKeyRow[]>, typed: string) => {
        const near = buckets.near(typed)[0];
        if (near) for (const row of rows.get(near.key) ?? []) add(row.line, entry.word, "typo", row.weight * (1 - TYPO_STEP * (near.distance - 1)));
      };
      typo(this.maps.termFoldBuckets, this.maps.termFolds, fold);
      typo(this.maps.termEnglishBuckets, this.maps.termEnglish, key);
    });
    // A description rather than a name ("consultar os mortos"): the terms whose verses share its words.
    const surest = Math.max(0, ...[...found.values()].map((match) => match.confidence));
    if (surest < DESCRIPTION_BELOW) this.salientTerms(query, add);
    return [...found.values()].sort(byConfidence);
  }

  /** Terms whose verses share most of the query's words (two at least). */
  private salientTerms(query: { word: string; stem: string }[], add: (line: number, matched: string, how: MatchHow, weight: number) => void): void {
    const distinct = [...new Set(query.map((entry) => entry.stem))];
    if (distinct.length < MIN_SALIENT_WORDS) return;
    if (!this.salient$) {
      this.salient$ = new Map();
      for (const row of this.maps.salientRows()) push(this.salient$, row.stem, row);
    }
    const hits = new Map<number, { stems: string[]; weight: number }>();
    for (const stem of distinct) {
      for (const { line, weight } of this.salient$.get(stem) ?? []) {
        const hit = hits.get(line) ?? { stems: [], weight: 0 };
        hit.stems.push(stem);
        hit.weight += weight;
        hits.set(line, hit);
      }
    }
    const needed = Math.max(MIN_SALIENT_WORDS, Math.ceil((distinct.length * 2) / 3));
    const ranked = [...hits.entries()].filter(([, hit]) => hit.stems.length >= needed).sort((a, b) => b[1].weight - a[1].weight || a[0] - b[0]);
    const top = ranked[0]?.[1].weight ?? 0;
    for (const [line, hit] of ranked.slice(0, 5)) {
      const words = [...new Set(query.filter((entry) => hit.stems.includes(entry.stem)).map((entry) => entry.word))];
      add(line, words.join(" "), "salient", (hit.stems.length / distinct.length) * (hit.weight / top));
    }
  }

  private termMatch(line: number, matched: string, how: MatchHow, confidence: number): TermMatch {
    const term = this.terms.get(line);
    return {
      kind: "term",
      id: term.id,
      label: term.pt[0]?.[0] ?? term.en[0] ?? term.id,
      english: term.en[0] ?? "",
      matched,
      how,
      confidence,
      verses: term.verses.map(([verse]) => verse),
      lemmas: term.pt.map(([lemma]) => lemma),
      cited: term.verses,
      see: term.see ?? [],
    };
  }

  // -------------------------------------------------------------------------------------------
  // Events

  /** The events a text names ("a morte de Moisés", "o Pentecostes"), by their Portuguese labels: a word of the label besides its names must be there. */
  event(text: string): EventMatch[] {
    const query = contentWords(text);
    const stems = [...new Set(query.map((entry) => entry.stem))];
    const hits = new Map<number, string[]>();
    for (const stem of stems) for (const line of this.maps.eventStems.get(stem) ?? []) push(hits, line, stem);
    const matches: EventMatch[] = [];
    for (const [line, matched] of hits) {
      const row = this.maps.eventRows.get(line)!;
      if (matched.every((stem) => row.names.includes(stem))) continue;
      const confidence = round(HOW_FACTOR.label * (0.5 * (matched.length / row.stems.length) + 0.5 * (matched.length / stems.length)));
      const event = this.events.get(line);
      matches.push({
        kind: "event",
        id: event.id,
        label: event.pt ?? event.en,
        english: event.en,
        matched: [...new Set(query.filter((entry) => matched.includes(entry.stem)).map((entry) => entry.word))].join(" "),
        how: "label",
        confidence,
        verses: event.verses.flatMap((run) => expandVerseRun(run)).slice(0, EVENT_VERSES),
        people: event.people,
        places: event.places,
      });
    }
    return matches.sort(byConfidence).slice(0, 5);
  }

  // -------------------------------------------------------------------------------------------
  // A question as a whole

  /**
   * Everything a question names: people and places (capitalised, or unmistakable), terms and
   * events, the likeliest first; below `minConfidence` (default 0.3) left out. A term is not
   * looked up on a word taken as a name unless it is that term's lemma ("Betel").
   */
  lookup(text: string, minConfidence = 0.3): AnyMatch[] {
    const names = this.nameMatches(tokensOf(text));
    const named = new Set(names.map((match) => foldName(match.matched)));
    const terms = this.term(text).filter((match) => match.how === "lemma" || !named.has(foldName(match.matched)));
    const events = this.event(text);
    return [...names, ...terms, ...events].filter((match) => match.confidence >= minConfidence).sort(byConfidence);
  }

  /** A person or place by id. */
  entity(id: string): PersonRecord | PlaceRecord | undefined {
    const at = this.idsOf().entities.get(id);
    if (!at) return undefined;
    return at.kind === "person" ? this.people.get(at.line) : this.places.get(at.line);
  }

  /** A term by id. */
  termById(id: string): TermRecord | undefined {
    const line = this.idsOf().terms.get(id);
    return line === undefined ? undefined : this.terms.get(line);
  }

  /** Every verse naming a person or place, or a term's whole ranking and its headings (read the first time asked). */
  async details(id: string): Promise<KnowledgeDetails | undefined> {
    if (!this.loadDetails) return undefined;
    this.details$ ??= this.loadDetails().then(indexDetails);
    const lines = await this.details$;
    const found = this.idsOf().entities.has(id) ? lines.get(id) : lines.get(`term:${id}`);
    if (!found) return undefined;
    const record = parseKnowledgeRecord("detail", found.text, "details.jsonl", found.line) as DetailRecord;
    return { mentions: record.mentions ?? [], verses: record.verses ?? [], headings: record.headings ?? [] };
  }
}

/** Each line of details.jsonl by its id, unparsed (a line is parsed when asked for). */
function indexDetails(text: string): Map<string, { text: string; line: number }> {
  const lines = new Map<string, { text: string; line: number }>();
  text.split("\n").forEach((line, i) => {
    const id = /^\{"kind":"detail","id":"([^"]+)"/.exec(line)?.[1];
    if (id !== undefined) lines.set(id, { text: line, line: i + 1 });
  });
  return lines;
}

function byConfidence(a: KnowledgeMatch, b: KnowledgeMatch): number {
  // Among equally sure matches, the more often named first (many share the name "Zacarias").
  const prominence = (match: KnowledgeMatch) => ("mentions" in match ? 0.05 * Math.log10(1 + (match as PersonMatch).mentions) : 0);
  return b.confidence + prominence(b) - (a.confidence + prominence(a)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const round = (value: number) => Math.round(value * 1000) / 1000;
