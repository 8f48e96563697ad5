/**
 * The 66 books of the Protestant canon with their Brazilian Portuguese names and every common
 * spelling and abbreviation, for the reference grammar in ./references.ts.
 *
 * Names are matched case-insensitively and with accents folded ("Genesis" = "Gênesis",
 * "GN" = "Gn"), with ONE deliberate exception: `Jó` (Job) and `Jo` (João) fold to the same
 * letters, so for that pair the accent decides ("Jó"/"jó"/"JÓ" = JOB, "Jo"/"jo"/"JO" = JHN).
 * The folding never merges any other two books (checked when this module loads).
 *
 * Numbered books (1-2 Samuel, Reis, Crônicas, Coríntios, Tessalonicenses, Timóteo, Pedro,
 * 1-3 João) are written as an ordinal prefix plus a stem: `1`, `1ª`, `1a`, `1º`, `1o`, `I`,
 * `II`, `III`, `Primeira`/`Primeiro`, `Segunda`/`Segundo`, `Terceira`/`Terceiro`, with or
 * without a space after a digit prefix (a roman numeral or a word needs the space), followed
 * by any stem spelling: "1Co", "1 Co", "I Coríntios", "1ª Coríntios", "Primeira Coríntios".
 * A stem alone ("Coríntios 13", "Pedro 3") is not a book.
 *
 * Canonical names (used by `formatReference`) follow current Brazilian usage and orthography
 * (Oseias, Miqueias without the old acute accent). Decision on the Psalms: the canonical name is
 * always the book name "Salmos", also for one psalm ("Salmos 23", "Salmos 23:1"), which is how
 * Brazilian study Bibles and indexes cite it; "Salmo 23" is accepted as input. Song of Songs is
 * "Cânticos" (input also "Cântico dos Cânticos", "Cantares", "Cantares de Salomão", "Ct").
 */

export type Testament = "old" | "new";

/**
 * How much evidence free-text scanning (`findReferences`) needs before it takes a name that is
 * also an ordinary word as a book (see references.ts for the full rules):
 * - `free`: always a book when followed by a chapter number ("Gn 1", "João 3").
 * - `capital`: written with an initial capital ("Atos 2", "Is 53"), or followed by an explicit
 *   chapter:verse with `:` or `.` ("atos 2:38"). Used for words such as "atos", "números",
 *   "marcos", units ("ml", "cl") and abbreviations ("Jr", "Pr", "Ap").
 * - `strict`: written with an initial capital AND followed by chapter:verse with `:` (or `.` and
 *   a 1-2 digit verse), or the "capítulo … versículo …" form. Used for Portuguese function words
 *   and abbreviations that routinely precede numbers: "os", "na", "num", "ex", "ed", "mal"
 *   ("Os 3 homens", "Na 2ª feira", "Ex. 1:", "Mal 3 dias depois").
 * For both classes an abbreviation written in capitals only ("FM 98", "AM 980", "ML 3", "OS 3")
 * does not count as capitalised: all-caps tokens are units, acronyms or shouting.
 * Parsing a whole string with `parseReference` ignores these classes: the caller already says
 * the string is a reference.
 */
export type AliasKind = "free" | "capital" | "strict";

export interface BookInfo {
  /** USFX/Paratext code ("GEN", "1CO"). */
  readonly code: string;
  /** 1-based canonical position (GEN = 1 … REV = 66). */
  readonly order: number;
  readonly testament: Testament;
  /** Canonical Brazilian Portuguese name ("Gênesis", "1 Coríntios", "Salmos"). */
  readonly name: string;
  /** Number of chapters in the usual Protestant versification (Judas = 1, Salmos = 150). */
  readonly chapters: number;
  /** For numbered books, the ordinal (1 Samuel → 1); undefined otherwise. */
  readonly ordinal: 1 | 2 | 3 | undefined;
  /**
   * Full-word spellings; for numbered books WITHOUT the ordinal ("Samuel"). Never followed by
   * an abbreviation period in free text ("João. 3 pessoas" is not a reference).
   */
  readonly names: readonly string[];
  /** Abbreviations (for numbered books without the ordinal: "Sm"). May carry a period: "Gn. 1". */
  readonly abbreviations: readonly string[];
}

/** `[code, canonical name or stem, chapters, names, abbreviations]`; numbered codes start with a digit. */
type RawBook = readonly [code: string, names: readonly string[], chapters: number, abbreviations: readonly string[]];

const OLD: readonly RawBook[] = [
  ["GEN", ["Gênesis", "Genesis"], 50, ["Gn", "Gên", "Gen"]],
  ["EXO", ["Êxodo", "Exodo"], 40, ["Êx", "Ex", "Êxo", "Exo"]],
  ["LEV", ["Levítico", "Levitico"], 27, ["Lv", "Lev"]],
  ["NUM", ["Números", "Numeros"], 36, ["Nm", "Núm", "Num"]],
  ["DEU", ["Deuteronômio", "Deuteronomio"], 34, ["Dt", "Deut"]],
  ["JOS", ["Josué", "Josue"], 24, ["Js", "Jos"]],
  ["JDG", ["Juízes", "Juizes"], 21, ["Jz"]],
  ["RUT", ["Rute"], 4, ["Rt", "Rut"]],
  ["1SA", ["Samuel"], 31, ["Sm", "Sam"]],
  ["2SA", ["Samuel"], 24, ["Sm", "Sam"]],
  ["1KI", ["Reis"], 22, ["Rs"]],
  ["2KI", ["Reis"], 25, ["Rs"]],
  ["1CH", ["Crônicas", "Cronicas"], 29, ["Cr", "Crôn", "Cron"]],
  ["2CH", ["Crônicas", "Cronicas"], 36, ["Cr", "Crôn", "Cron"]],
  ["EZR", ["Esdras"], 10, ["Ed", "Esd"]],
  ["NEH", ["Neemias"], 13, ["Ne", "Nee"]],
  ["EST", ["Ester"], 10, ["Et", "Est"]],
  ["JOB", ["Jó"], 42, []],
  ["PSA", ["Salmos", "Salmo"], 150, ["Sl", "Sal", "Slm"]],
  ["PRO", ["Provérbios", "Proverbios"], 31, ["Pv", "Pr", "Prov", "Prv"]],
  ["ECC", ["Eclesiastes"], 12, ["Ec", "Ecl", "Ecle"]],
  [
    "SNG",
    ["Cânticos", "Canticos", "Cântico dos Cânticos", "Cânticos dos Cânticos", "Cantares", "Cantares de Salomão"],
    8,
    ["Ct", "Cnt", "Cant", "Cânt"],
  ],
  ["ISA", ["Isaías", "Isaias"], 66, ["Is", "Isa"]],
  ["JER", ["Jeremias"], 52, ["Jr", "Jer"]],
  ["LAM", ["Lamentações", "Lamentacoes", "Lamentações de Jeremias"], 5, ["Lm", "Lam"]],
  ["EZK", ["Ezequiel"], 48, ["Ez", "Eze", "Ezq"]],
  ["DAN", ["Daniel"], 12, ["Dn", "Dan"]],
  ["HOS", ["Oseias", "Oséias"], 14, ["Os", "Ose"]],
  ["JOL", ["Joel"], 3, ["Jl"]],
  ["AMO", ["Amós", "Amos"], 9, ["Am"]],
  ["OBA", ["Obadias", "Abdias"], 1, ["Ob", "Obd", "Ab"]],
  ["JON", ["Jonas"], 4, ["Jn", "Jon"]],
  ["MIC", ["Miqueias", "Miquéias"], 7, ["Mq", "Miq"]],
  ["NAM", ["Naum"], 3, ["Na"]],
  ["HAB", ["Habacuque"], 3, ["Hc", "Hab"]],
  ["ZEP", ["Sofonias"], 3, ["Sf", "Sof"]],
  ["HAG", ["Ageu"], 2, ["Ag"]],
  ["ZEC", ["Zacarias"], 14, ["Zc", "Zac"]],
  ["MAL", ["Malaquias"], 4, ["Ml", "Mal"]],
];

const NEW: readonly RawBook[] = [
  ["MAT", ["Mateus"], 28, ["Mt", "Mat"]],
  ["MRK", ["Marcos"], 16, ["Mc"]],
  ["LUK", ["Lucas"], 24, ["Lc", "Luc"]],
  ["JHN", ["João", "Joao"], 21, ["Jo"]],
  ["ACT", ["Atos", "Atos dos Apóstolos"], 28, ["At"]],
  ["ROM", ["Romanos"], 16, ["Rm", "Rom"]],
  ["1CO", ["Coríntios", "Corintios"], 16, ["Co", "Cor"]],
  ["2CO", ["Coríntios", "Corintios"], 13, ["Co", "Cor"]],
  ["GAL", ["Gálatas", "Galatas"], 6, ["Gl", "Gál", "Gal"]],
  ["EPH", ["Efésios", "Efesios"], 6, ["Ef", "Efé"]],
  ["PHP", ["Filipenses"], 4, ["Fp", "Fl", "Fil", "Flp"]],
  ["COL", ["Colossenses"], 4, ["Cl", "Col"]],
  ["1TH", ["Tessalonicenses"], 5, ["Ts", "Tes", "Tess"]],
  ["2TH", ["Tessalonicenses"], 3, ["Ts", "Tes", "Tess"]],
  ["1TI", ["Timóteo", "Timoteo"], 6, ["Tm", "Tim"]],
  ["2TI", ["Timóteo", "Timoteo"], 4, ["Tm", "Tim"]],
  ["TIT", ["Tito"], 3, ["Tt", "Tit"]],
  ["PHM", ["Filemom", "Filemon"], 1, ["Fm", "Flm", "Filem"]],
  ["HEB", ["Hebreus"], 13, ["Hb", "Heb"]],
  ["JAS", ["Tiago"], 5, ["Tg"]],
  ["1PE", ["Pedro"], 5, ["Pe", "Pd", "Ped"]],
  ["2PE", ["Pedro"], 3, ["Pe", "Pd", "Ped"]],
  ["1JN", ["João", "Joao"], 5, ["Jo"]],
  ["2JN", ["João", "Joao"], 1, ["Jo"]],
  ["3JN", ["João", "Joao"], 1, ["Jo"]],
  ["JUD", ["Judas"], 1, ["Jd", "Jud"]],
  ["REV", ["Apocalipse"], 22, ["Ap", "Apoc", "Apc"]],
];

/** The 66 books in canonical order (GEN … REV). */
export const BOOKS: readonly BookInfo[] = Object.freeze(
  [...OLD, ...NEW].map(([code, names, chapters, abbreviations], i): BookInfo => {
    const digit = /^[1-3]/.test(code) ? (Number(code[0]) as 1 | 2 | 3) : undefined;
    const stem = names[0] as string;
    return Object.freeze({
      code,
      order: i + 1,
      testament: i < OLD.length ? "old" : "new",
      name: digit === undefined ? stem : `${digit} ${stem}`,
      chapters,
      ordinal: digit,
      names: Object.freeze([...names]),
      abbreviations: Object.freeze([...abbreviations]),
    });
  }),
);

const BY_CODE: ReadonlyMap<string, BookInfo> = new Map(BOOKS.map((b) => [b.code, b]));

/** The book with this USFX code (exact, upper case: "JHN"), or undefined. */
export function bookByCode(code: string): BookInfo | undefined {
  return BY_CODE.get(code);
}

/** A verse written as data files write it, `BOOK C:V` with the USFX code ("JHN 3:16"). */
const VERSE_ID = /^([1-3A-Z]{3}) ([1-9]\d*):([1-9]\d*)$/;

/** The coordinate of a `BOOK C:V` verse id, or undefined when it is malformed or names no book. */
export function parseVerseId(id: string): { book: string; chapter: number; verse: number } | undefined {
  const match = VERSE_ID.exec(id);
  if (!match || !bookByCode(match[1]!)) return undefined;
  return { book: match[1]!, chapter: Number(match[2]), verse: Number(match[3]) };
}

// ---------------------------------------------------------------------------------------------
// Folding
// ---------------------------------------------------------------------------------------------

/** Lower-case, accent-free form of each UTF-16 unit below U+0250 (Latin); others map to themselves. */
const FOLD_TABLE: readonly string[] = Array.from({ length: 0x250 }, (_, c) => {
  if (c === 0xb0) return "º"; // degree sign, often typed for the masculine ordinal: "1° Samuel"
  const ch = String.fromCharCode(c);
  const stripped = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  return stripped.length === 1 ? stripped : ch;
});

const NEEDS_FOLD = /[A-Z\u00b0\u00c0-\u024f]/g;

/**
 * Lower-cases and strips accents from Latin letters WITHOUT changing the string's length, so
 * that an index into the folded string is the same index into the original ("Gênesis" →
 * "genesis"). Decomposed input (letter + combining accent) is not folded.
 */
export function foldText(text: string): string {
  return text.replace(NEEDS_FOLD, (ch) => FOLD_TABLE[ch.charCodeAt(0)] ?? ch);
}

/** Folded, whitespace-collapsed, trimmed key. */
function key(text: string): string {
  return foldText(text.normalize("NFC")).trim().replace(/\s+/g, " ");
}

// ---------------------------------------------------------------------------------------------
// Alias tables
// ---------------------------------------------------------------------------------------------

/** Result of looking up one spelling. */
export interface AliasHit {
  readonly book: BookInfo;
  /** True for an abbreviation ("Gn", "1Co"), false for a full name ("Gênesis"). */
  readonly abbreviation: boolean;
}

const UNNUMBERED = new Map<string, AliasHit>(); // folded spelling → hit (never "jo")
const NUMBERED = new Map<string, AliasHit>(); // `${ordinal}|${folded stem}` → hit
/** Folded spellings of every stem/name, numbered or not (for the scanner's regex and trie). */
const STEMS = new Set<string>();

function register(map: Map<string, AliasHit>, k: string, hit: AliasHit): void {
  const previous = map.get(k);
  if (previous && previous.book !== hit.book) {
    throw new Error(`books.ts: "${k}" would name both ${previous.book.code} and ${hit.book.code}`);
  }
  if (!previous || (previous.abbreviation && !hit.abbreviation)) map.set(k, hit);
}

/** A book's names and abbreviations as written (for numbered books, without the ordinal). */
function stemSpellings(book: BookInfo): Array<{ text: string; abbreviation: boolean }> {
  return [
    ...book.names.map((text) => ({ text, abbreviation: false })),
    ...book.abbreviations.map((text) => ({ text, abbreviation: true })),
  ];
}

for (const book of BOOKS) {
  for (const { text, abbreviation } of stemSpellings(book)) {
    const k = key(text);
    STEMS.add(k);
    const hit: AliasHit = { book, abbreviation };
    if (book.ordinal !== undefined) register(NUMBERED, `${book.ordinal}|${k}`, hit);
    else if (k !== "jo") register(UNNUMBERED, k, hit);
  }
}

/** The two books whose spellings differ only by an accent: the accent decides. */
const JO_EXACT: ReadonlyMap<string, AliasHit> = new Map([
  ["jó", { book: BY_CODE.get("JOB") as BookInfo, abbreviation: false }],
  ["jo", { book: BY_CODE.get("JHN") as BookInfo, abbreviation: true }],
]);

/** Folded stems of every book name and abbreviation (without ordinals), e.g. "genesis", "gn", "co". */
export const BOOK_STEMS: ReadonlySet<string> = STEMS;

/**
 * Looks up a spelling written WITHOUT an ordinal ("Gn", "Jó", "João", "Cântico dos Cânticos").
 * Case-insensitive and accent-folded, except `Jó` (Job) vs `Jo` (João).
 */
export function lookupUnnumbered(spelling: string): AliasHit | undefined {
  const lower = spelling.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
  const exact = JO_EXACT.get(lower);
  if (exact) return exact;
  return UNNUMBERED.get(key(lower));
}

/** Looks up the stem of a numbered book ("Co", "Coríntios", "Jo") for ordinal 1, 2 or 3. */
export function lookupNumbered(ordinal: number, stem: string): AliasHit | undefined {
  return NUMBERED.get(`${ordinal}|${key(stem)}`);
}

/**
 * Ordinal prefixes accepted before a numbered book, folded, for ordinal n. Digits may be glued
 * to the stem ("1Co"); roman numerals and words need a space ("I Co", "Primeira Coríntios").
 */
export function ordinalPrefixes(n: 1 | 2 | 3): { glued: readonly string[]; spaced: readonly string[] } {
  const d = String(n);
  const roman = "I".repeat(n);
  const words = [
    ["Primeira", "Primeiro"],
    ["Segunda", "Segundo"],
    ["Terceira", "Terceiro"],
  ][n - 1] as string[];
  return {
    glued: [d, `${d}ª`, `${d}a`, `${d}º`, `${d}o`, `${d}°`],
    spaced: [roman, ...words],
  };
}

/** Folded spaced prefix ("i", "ii", "segunda") → its ordinal. */
const SPACED_ORDINALS: ReadonlyMap<string, 1 | 2 | 3> = new Map(
  ([1, 2, 3] as const).flatMap((n) => ordinalPrefixes(n).spaced.map((prefix) => [foldText(prefix), n] as const)),
);

/** Parses a folded ordinal prefix ("1", "1ª", "ii", "segunda") to its number, or undefined. */
export function ordinalValue(foldedPrefix: string): 1 | 2 | 3 | undefined {
  const p = foldedPrefix.replace(/\.(?=[ªº])/, "");
  const m = /^([1-3])[ªºao]?$/.exec(p);
  return m ? (Number(m[1]) as 1 | 2 | 3) : SPACED_ORDINALS.get(p);
}

const ORDINAL_AND_REST = /^(?:([1-3](?:[ªºao]|\.[ªº])?) ?|(i{1,3}|primeir[ao]|segund[ao]|terceir[ao]) )(.+)$/;

/**
 * Resolves a book name written on its own ("Gn", "gênesis", "1 Co", "I Coríntios", "1ª João",
 * "Jó", "jo"), ignoring case, surrounding space and one trailing abbreviation period.
 */
export function resolveBookName(name: string): BookInfo | undefined {
  const trimmed = name.normalize("NFC").trim().replace(/\s+/g, " ").replace(/\.$/, "").trimEnd();
  if (!trimmed) return undefined;
  const folded = foldText(trimmed);
  const m = ORDINAL_AND_REST.exec(folded);
  if (m) {
    const n = ordinalValue((m[1] ?? m[2]) as string);
    const rest = trimmed.slice(trimmed.length - (m[3] as string).length);
    const hit = n === undefined ? undefined : lookupNumbered(n, rest);
    if (hit) return hit.book;
  }
  return lookupUnnumbered(trimmed)?.book;
}

/**
 * Every spelling this module accepts for a book, as a reader would type it: names and
 * abbreviations, and for numbered books every ordinal prefix combined with every stem (glued
 * and spaced). Used by tests and by the streaming prefix matcher.
 */
export function bookAliases(book: BookInfo): string[] {
  return bookSpellings(book).map((s) => s.text);
}

/** {@link bookAliases}, each flagged as abbreviation (may take a period) or full name. */
export function bookSpellings(book: BookInfo): Array<{ text: string; abbreviation: boolean }> {
  const stems = stemSpellings(book);
  if (book.ordinal === undefined) return stems;
  const { glued, spaced } = ordinalPrefixes(book.ordinal);
  const out: Array<{ text: string; abbreviation: boolean }> = [];
  for (const { text, abbreviation } of stems) {
    for (const p of glued) out.push({ text: `${p}${text}`, abbreviation }, { text: `${p} ${text}`, abbreviation });
    for (const p of spaced) out.push({ text: `${p} ${text}`, abbreviation });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Ambiguity classes
// ---------------------------------------------------------------------------------------------

const KIND_BY_SPELLING: ReadonlyMap<string, AliasKind> = new Map<string, AliasKind>([
  // strict: Portuguese function words / abbreviations that routinely precede a number
  ["os", "strict"], // article: "os 3 homens"
  ["na", "strict"], // preposition: "na 2ª feira"
  ["num", "strict"], // "num 2º momento"; "núm." = número
  ["ex", "strict"], // "ex. 1:", "ex-"
  ["êx", "free"], // with the accent it can only be Êxodo
  ["ed", "strict"], // "Ed. 3" (edição)
  ["mal", "strict"], // "Mal 3 dias depois"
  // capital: ordinary words, units and abbreviations that are books only when capitalised
  ["lv", "capital"],
  ["nm", "capital"],
  ["numeros", "capital"],
  ["dt", "capital"],
  ["js", "capital"],
  ["juizes", "capital"],
  ["et", "capital"],
  ["est", "capital"],
  ["ester", "capital"],
  ["ne", "capital"],
  ["sal", "capital"],
  ["pr", "capital"],
  ["proverbios", "capital"],
  ["canticos", "capital"],
  ["cantares", "capital"],
  ["is", "capital"],
  ["jr", "capital"],
  ["lamentacoes", "capital"],
  ["ob", "capital"],
  ["ab", "capital"],
  ["am", "capital"], // "10 am"; all-caps "AM 980" is refused (see aliasKind)
  ["fm", "capital"], // all-caps "FM 98" is refused
  ["amos", "capital"],
  ["ag", "capital"],
  ["ml", "capital"],
  ["mt", "capital"],
  ["mat", "capital"],
  ["marcos", "capital"],
  ["mc", "capital"],
  ["atos", "capital"],
  ["at", "capital"],
  ["romanos", "capital"],
  ["rm", "capital"],
  ["fl", "capital"],
  ["cl", "capital"],
  ["hebreus", "capital"],
  ["hb", "capital"],
  ["ap", "capital"],
]);

/**
 * Ambiguity class of an unnumbered spelling as written ("Os" → strict, "Êx" → free, "Atos" →
 * capital, "Gn" → free). Numbered spellings are always free: the ordinal is evidence enough.
 */
export function aliasKind(spelling: string): AliasKind {
  const lower = spelling.normalize("NFC").trim().toLowerCase();
  return KIND_BY_SPELLING.get(lower) ?? KIND_BY_SPELLING.get(key(lower)) ?? "free";
}
