/**
 * The lookup keys of resources/knowledge/, computed once by the build (`formatKeyRows`) and read at
 * load (`parseKeyRows`) so that loading is map inserts, not the analysis of ≈ 40,000 names and
 * lemmas: each row names a record by its kind and line (0-based among the file's records).
 *
 *   N  p|l  line  confidence  lowercase  form  fold  key   a Portuguese name the corpus prints, and the share of its uses in lowercase
 *   E  p|l  line  confidence  form  key                 an English name, met by its spelling key only (when no Portuguese name has that key)
 *   L  line  weight  lemma  words  stems                a term's Portuguese lemma: its folded content words and their stems (a one-word
 *                                                       lemma is also met folded or mistyped: "cremacao")
 *   G  line  weight  form  key                          a term's English word (heading, WordNet synonym), by spelling key
 *   S  line  weight  stem                               a stem the term's verses share (last: parsed when first needed)
 *   V  line  stems  names                               an event's label stems, and those of the names in it
 *
 * The header names the analyzer and the key version: keys from another version are refused.
 */
import { ANALYZER_VERSION, analyzeWord } from "../analysis/analyze.js";
import { foldAccents } from "../analysis/fold.js";
import { isStopword } from "../analysis/stopwords.js";
import { NAME_KEY_VERSION, nameKey } from "./name-key.js";
import { KnowledgeFileError, type EventRecord, type PersonRecord, type PlaceRecord, type TermRecord } from "./records.js";

export const KEY_ROWS_HEADER = `# knowledge keys v3; ${NAME_KEY_VERSION}; analyzer ${ANALYZER_VERSION}`;

export interface KnowledgeRecords {
  people: readonly PersonRecord[];
  places: readonly PlaceRecord[];
  events: readonly EventRecord[];
  terms: readonly TermRecord[];
}

export interface NameRow {
  kind: "person" | "place";
  line: number;
  confidence: number;
  /** The share of the word's uses the corpus prints in lowercase (0 for an English name). */
  lowercase: number;
  form: string;
  /** The folded form ("" for an English name, met by key only). */
  fold: string;
  key: string;
  english: boolean;
}

export interface LemmaRow {
  line: number;
  weight: number;
  lemma: string;
  words: string[];
  stems: string[];
}

export interface TermKeyRow {
  line: number;
  weight: number;
  form: string;
  key: string;
  english: boolean;
}

export interface SalientRow {
  line: number;
  weight: number;
  stem: string;
}

export interface KeyRows {
  names: NameRow[];
  lemmas: LemmaRow[];
  termKeys: TermKeyRow[];
  /** The salient stems, parsed the first time they are asked for. */
  salient: () => SalientRow[];
  events: { line: number; stems: string[]; names: string[] }[];
}

/** A name's fold: lowercase, no accents, letters only ("En-Dor", "en dor" → "endor"). */
export const foldName = (text: string): string => foldAccents(text.toLowerCase()).replace(/[^a-z]/g, "");

/** The content words of a text, folded, with their stems (the analyzer's), in order. */
export function contentWords(text: string): { word: string; fold: string; stem: string }[] {
  const out: { word: string; fold: string; stem: string }[] = [];
  for (const match of text.toLowerCase().matchAll(/\p{L}+/gu)) {
    const fold = foldAccents(match[0]);
    if (isStopword(fold)) continue;
    out.push({ word: match[0], fold, stem: analyzeWord(match[0]) });
  }
  return out;
}

const clean = (text: string) => text.replace(/[\t\n]/g, " ");

/** The rows for these records (what the build writes). */
export function formatKeyRows(records: KnowledgeRecords): string {
  const rows: string[] = [KEY_ROWS_HEADER];
  // The salient stems last: read only when a question matches nothing else.
  const salient: string[] = [];
  const entities: [string, readonly (PersonRecord | PlaceRecord)[]][] = [
    ["p", records.people],
    ["l", records.places],
  ];
  for (const [kind, list] of entities) {
    list.forEach((entity, line) => {
      for (const name of entity.names) {
        rows.push(["N", kind, line, name.c, name.lc, clean(name.pt), foldName(name.pt), nameKey(name.pt)].join("\t"));
      }
      const best = Math.max(0.5, ...entity.names.map((name) => name.c));
      const keys = new Set(entity.names.map((name) => nameKey(name.pt)));
      const english = new Set([entity.en.replace(/\s*\(.*\)$/, ""), ...entity.names.map((name) => name.en)]);
      for (const name of english) if (nameKey(name) !== "" && !keys.has(nameKey(name))) rows.push(["E", kind, line, best, clean(name), nameKey(name)].join("\t"));
    });
  }
  records.terms.forEach((term, line) => {
    const best = term.pt[0]?.[1] ?? 0.7;
    for (const [lemma, weight, verses] of term.pt) {
      const words = contentWords(lemma);
      // A lemma the corpus prints everywhere ("fazer", "dia") tells less of what is asked.
      const specific = Math.round(weight * Math.max(0.5, 1 - 0.15 * Math.log10(Math.max(1, verses / 50))) * 1000) / 1000;
      if (words.length > 0) rows.push(["L", line, specific, clean(lemma), words.map((w) => w.fold).join(" "), words.map((w) => w.stem).join(" ")].join("\t"));
    }
    const english = new Set([...term.en, ...term.enSyn].map((word) => word.trim()).filter((word) => /^[A-Za-z'’-]+$/.test(word)));
    for (const word of english) if (nameKey(word).length >= 3) rows.push(["G", line, best, clean(word), nameKey(word)].join("\t"));
    for (const [stem, weight] of term.salient) salient.push(["S", line, weight, stem].join("\t"));
  });
  const nameStems = new Map<string, string[]>();
  for (const entity of [...records.people, ...records.places]) {
    nameStems.set(entity.id, entity.names.flatMap((name) => contentWords(name.pt).map((word) => word.stem)));
  }
  records.events.forEach((event, line) => {
    const stems = [...new Set(contentWords(event.pt ?? "").map((word) => word.stem))];
    if (stems.length === 0) return;
    const names = new Set([...event.people, ...event.places].flatMap((id) => nameStems.get(id) ?? []));
    rows.push(["V", line, stems.join(" "), stems.filter((stem) => names.has(stem)).join(" ")].join("\t"));
  });
  return `${[...rows, ...salient].join("\n")}\n`;
}

function numberField(value: string | undefined, file: string, line: number): number {
  const n = value === undefined || value === "" ? NaN : Number(value);
  if (!Number.isFinite(n)) throw new KnowledgeFileError(file, line, `número inválido: ${value ?? ""}`);
  return n;
}

const wordsField = (value: string | undefined): string[] => (value ? value.split(" ") : []);

/** The rows of the keys file's text, checked; `file` names it in errors. */
export function parseKeyRows(text: string, file: string): KeyRows {
  const salientAt = text.indexOf("\nS\t");
  const head = salientAt < 0 ? text : text.slice(0, salientAt + 1);
  let salient: SalientRow[] | undefined;
  const rows: KeyRows = {
    names: [],
    lemmas: [],
    termKeys: [],
    salient: () => (salient ??= parseSalient(salientAt < 0 ? "" : text.slice(salientAt + 1), file, head.split("\n").length)),
    events: [],
  };
  const lines = head.split("\n");
  if (lines[0] !== KEY_ROWS_HEADER) {
    throw new KnowledgeFileError(file, 1, `gerado com outra versão (${lines[0] ?? ""}; esperado ${KEY_ROWS_HEADER}); rode npx tsx scripts/build-knowledge.ts`);
  }
  const sizes: Readonly<Record<string, number>> = { N: 8, E: 6, L: 6, G: 5, S: 4, V: 4 };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "") continue;
    const f = line.split("\t");
    const type = f[0]!;
    const n = i + 1;
    if (f.length !== sizes[type] || ((type === "N" || type === "E") && f[1] !== "p" && f[1] !== "l")) {
      throw new KnowledgeFileError(file, n, `linha ${type} malformada`);
    }
    if (type === "N") {
      rows.names.push({ kind: f[1] === "p" ? "person" : "place", line: numberField(f[2], file, n), confidence: numberField(f[3], file, n), lowercase: numberField(f[4], file, n), form: f[5]!, fold: f[6]!, key: f[7]!, english: false });
    } else if (type === "E") {
      rows.names.push({ kind: f[1] === "p" ? "person" : "place", line: numberField(f[2], file, n), confidence: numberField(f[3], file, n), lowercase: 0, form: f[4]!, fold: "", key: f[5]!, english: true });
    } else if (type === "L") {
      rows.lemmas.push({ line: numberField(f[1], file, n), weight: numberField(f[2], file, n), lemma: f[3]!, words: wordsField(f[4]), stems: wordsField(f[5]) });
    } else if (type === "G") {
      rows.termKeys.push({ line: numberField(f[1], file, n), weight: numberField(f[2], file, n), form: f[3]!, key: f[4]!, english: true });
    } else if (type === "S") {
      throw new KnowledgeFileError(file, n, "linha S fora do fim do arquivo");
    } else {
      rows.events.push({ line: numberField(f[1], file, n), stems: wordsField(f[2]), names: wordsField(f[3]) });
    }
  }
  return rows;
}

/** The S rows (the file's last), `firstLine` the 1-based number of the first. */
function parseSalient(text: string, file: string, firstLine: number): SalientRow[] {
  const rows: SalientRow[] = [];
  text.split("\n").forEach((line, i) => {
    if (line === "") return;
    const f = line.split("\t");
    if (f.length !== 4 || f[0] !== "S") throw new KnowledgeFileError(file, firstLine + i, "linha S malformada");
    rows.push({ line: numberField(f[1], file, firstLine + i), weight: numberField(f[2], file, firstLine + i), stem: f[3]! });
  });
  return rows;
}
