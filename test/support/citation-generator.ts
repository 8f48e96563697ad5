/**
 * Generator of model answers for the citation check's property tests (test/citations.property.test.ts)
 * and benchmark (bench/citations.ts): Markdown answers with references planted in every form
 * of issue #16, allowed (shown: João 3:16-17, Romanos 6:23) and not, and an oracle that does
 * not use the checker's grammar: it knows what it planted and looks for the planted tokens in a
 * plain normalisation of the output.
 *
 * Every disallowed reference carries a verse number (100-199) used nowhere else in its answer,
 * and a book outside the canon a name used nowhere else: after the check, neither may be left
 * in the output (in digits, or in words for the word form). Every allowed reference must be
 * left verbatim (when planted alone) and be cited.
 */
import { resolveBookName } from "../../src/core/bible/books.js";
import { mulberry32 } from "../../src/core/index/linalg.js";
import { CitationStreamFilter, checkCitations } from "../../src/core/grounding/citations.js";
import { ShownVerses } from "../../src/core/grounding/passages.js";

export const SHOWN = new ShownVerses([
  { book: "JHN", chapter: 3, verse: 16, verseEnd: 16, windowRefs: [{ book: "JHN", chapter: 3, verse: 17 }] },
  { book: "ROM", chapter: 6, verse: 23, verseEnd: 23, windowRefs: [] },
]);

/** Seeded PRNG. */
export const seeded = mulberry32;

interface Book {
  spellings: readonly string[];
  /** Slug in bibliaonline.com.br URLs. */
  slug: string;
  /** Canonical name for citations. */
  canonical: string;
}

const JOHN: Book = { spellings: ["João", "Jo", "John", "Joao", "Juan"], slug: "jo", canonical: "João" };
const ROMANS: Book = { spellings: ["Romanos", "Rm", "Romans", "Rom"], slug: "rm", canonical: "Romanos" };
const CANON_DISALLOWED: readonly Book[] = [
  JOHN,
  ROMANS,
  { spellings: ["1 João", "1Jo", "1 John", "I João"], slug: "1jo", canonical: "1 João" },
  { spellings: ["Gálatas", "Gl", "Galatians"], slug: "gl", canonical: "Gálatas" },
  { spellings: ["Salmos", "Sl", "Psalm", "Salmo"], slug: "sl", canonical: "Salmos" },
  { spellings: ["Mateus", "Mt", "Matthew"], slug: "mt", canonical: "Mateus" },
];
const OUTSIDE: readonly string[] = ["Tobias", "1 Macabeus", "Enoque", "Sabedoria", "Sirach", "Baruque", "Judite", "Jubileus"];

const ALLOWED: ReadonlyArray<{ book: Book; chapter: number; verse: number }> = [
  { book: JOHN, chapter: 3, verse: 16 },
  { book: JOHN, chapter: 3, verse: 17 },
  { book: ROMANS, chapter: 6, verse: 23 },
];

const UNITS = ["", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove"];
const TEENS = ["dez", "onze", "doze", "treze", "quatorze", "quinze", "dezesseis", "dezessete", "dezoito", "dezenove"];
const TENS = ["", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa"];

/** Portuguese cardinal of 1-199. */
export function inWords(n: number): string {
  if (n >= 100) return n === 100 ? "cem" : `cento e ${inWords(n - 100)}`;
  if (n >= 20) return TENS[Math.floor(n / 10)] + (n % 10 ? ` e ${UNITS[n % 10]}` : "");
  if (n >= 10) return TEENS[n - 10] as string;
  return UNITS[n] as string;
}

const FULL_WIDTH = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
const SUPERSCRIPT = (s: string) => s.replace(/\d/g, (d) => "⁰¹²³⁴⁵⁶⁷⁸⁹"[Number(d)] as string);
const ARABIC = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));
const CYRILLIC: Record<string, string> = { o: "\u043e", a: "\u0430", e: "\u0435", c: "\u0441", p: "\u0440", J: "\u0408" };
const INVISIBLES = ["\u200b", "\u00ad", "\u2060", "\ufeff"];

/** A reference form: renders book spelling, chapter and verse. `words`: numbers written in words. */
interface Form {
  name: string;
  render: (pick: <T>(xs: readonly T[]) => T, book: string, c: number, v: number, slug: string) => string;
  words?: boolean;
  /** Only for disallowed references (a link that hides its text). */
  hidden?: boolean;
  /** Written with a Portuguese name only (the book after its numbers: "capítulo 3 de John" is no form a reader knows). */
  portuguese?: boolean;
  /** The reader sees it otherwise than it is written (a right-to-left override): an allowed one is kept in display order, not verbatim. */
  reordered?: boolean;
  /** The numbers as written, when they differ from the shown ones (reversed by an override): a leak of these counts too. */
  written?: (n: number) => string;
}

/** The Roman numeral of 1-150, in capitals. */
export function roman(n: number): string {
  const table: Array<[number, string]> = [[100, "C"], [90, "XC"], [50, "L"], [40, "XL"], [10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"]];
  let out = "";
  for (const [value, letters] of table) {
    while (n >= value) {
      out += letters;
      n -= value;
    }
  }
  return out;
}

const reversed = (s: string) => [...s].reverse().join("");

const url = (slug: string, c: number, v: number) => `https://www.bibliaonline.com.br/acf/${slug}/${c}/${v}`;

export const FORMS: readonly Form[] = [
  { name: "plain", render: (_p, b, c, v) => `${b} ${c}:${v}` },
  { name: "bold book", render: (_p, b, c, v) => `**${b}** ${c}:${v}` },
  { name: "bold numbers", render: (_p, b, c, v) => `${b} **${c}:${v}**` },
  {
    name: "italic book",
    render: (p, b, c, v) => {
      const m = p(["*", "_"]);
      return `${m}${b}${m} ${c}:${v}`;
    },
  },
  { name: "bold all", render: (_p, b, c, v) => `**${b} ${c}:${v}**` },
  { name: "backticks", render: (_p, b, c, v) => `\`${b} ${c}:${v}\`` },
  { name: "no space", render: (_p, b, c, v) => `${b.replace(/ /g, "")}${c}:${v}` },
  { name: "words", render: (_p, b, c, v) => `${b} capítulo ${inWords(c)}, versículo ${inWords(v)}`, words: true },
  { name: "zero-padded", render: (_p, b, c, v) => `${b} 0${c}:0${v}` },
  { name: "full-width", render: (p, b, c, v) => `${b} ${FULL_WIDTH(String(c))}${p(["：", ":"])}${FULL_WIDTH(String(v))}` },
  { name: "arabic-indic digits", render: (_p, b, c, v) => `${b} ${ARABIC(String(c))}:${ARABIC(String(v))}` },
  { name: "colon variants", render: (p, b, c, v) => `${b} ${c}${p(["∶", " : ", "：", " ：", "꞉"])}${v}` },
  {
    name: "invisible inside name",
    render: (p, b, c, v) => {
      const at = 1 + Math.floor(p([0, 0.3, 0.6, 0.9]) * (b.length - 1));
      return `${b.slice(0, at)}${p(INVISIBLES)}${b.slice(at)} ${c}:${v}`;
    },
  },
  { name: "decomposed accents", render: (_p, b, c, v) => `${b.normalize("NFD")} ${c}:${v}` },
  { name: "cyrillic look-alikes", render: (_p, b, c, v) => `${b.replace(/[oaecpJ]/, (ch) => CYRILLIC[ch] ?? ch)} ${c}:${v}` },
  { name: "line break", render: (_p, b, c, v) => `${b}\n${c}:${v}` },
  { name: "url", render: (_p, _b, c, v, slug) => url(slug, c, v) },
  { name: "link", render: (_p, b, c, v, slug) => `[${b} ${c}:${v}](${url(slug, c, v)})` },
  { name: "hidden link", render: (p, _b, c, v, slug) => `[${p(["aqui", "este texto", "leia"])}](${url(slug, c, v)})`, hidden: true },
  { name: "html bold", render: (_p, b, c, v) => `<b>${b}</b> ${c}:${v}` },
  { name: "superscript digits", render: (_p, b, c, v) => `${b} ${SUPERSCRIPT(String(c))}:${SUPERSCRIPT(String(v))}` },
  { name: "nbsp entity", render: (_p, b, c, v) => `${b}&nbsp;${c}:${v}` },
  { name: "parentheses", render: (p, b, c, v) => `(${p(["", "cf. ", "veja "])}${b} ${c}:${v})` },
  // issue 43, item 7
  { name: "comma before capítulo", render: (p, b, c, v) => `${b}, ${p(["capítulo", "cap."])} ${c}, ${p(["versículo", "v."])} ${v}`, portuguese: true },
  { name: "chapter before the book", render: (p, b, c, v) => `${p(["", "no "])}capítulo ${c} ${p(["de", "do livro de"])} ${b}, versículo ${v}`, portuguese: true },
  { name: "verse, chapter, book", render: (p, b, c, v) => `${p(["", "o "])}versículo ${v} do capítulo ${c} de ${b}`, portuguese: true },
  { name: "Roman chapter", render: (p, b, c, v) => `${b} ${roman(c)}${p([", ", ":", "."])}${v}` },
  { name: "right-to-left override", render: (_p, b, c, v) => `\u202e${reversed(`${b} ${c}:${v}`)}\u202c`, reordered: true, written: (n) => reversed(String(n)) },
  { name: "right-to-left letter", render: (p, b, c, v) => `${b} ${p(["\u05d0", "\u0640", "\u0627"])}${c}:${v}` },
];

export interface Planted {
  /** Rendered text. */
  text: string;
  form: string;
  allowed: boolean;
  /** Allowed: canonical citation. */
  citation?: string;
  /** Allowed and alone: must be in the output verbatim. */
  verbatim?: boolean;
  /** Disallowed: tokens that must not be in the normalised output. */
  forbidden?: string[];
}

export interface GeneratedCase {
  answer: string;
  planted: Planted[];
}

const SENTENCES = [
  "Como lemos em {R}, Deus ama o mundo.",
  "Jesus ensinou isso {R}.",
  "Segundo {R}, a fé vem pelo ouvir.",
  "Veja {R} e ore.",
  "O amor de Deus é eterno ({R}).",
  "A graça é um dom — {R} — para todos.",
  "Paulo fala disso em {R}; o perdão vem de Deus.",
  "Leia também {R}.",
];
const LINES = ["- {R}: o amor de Deus", "1. {R}", "> {R}", "* **Leitura:** {R}"];
const HEADINGS = ["## O que a Bíblia diz", "### Para refletir", "**Resumo**"];

export function generateCase(random: () => number): GeneratedCase {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const used = new Set<number>();
  const unique = (): number => {
    let n: number;
    do n = 100 + Math.floor(random() * 100);
    while (used.has(n));
    used.add(n);
    return n;
  };
  const outsideLeft = [...OUTSIDE];
  const planted: Planted[] = [];

  const plant = (): string => {
    const kind = random();
    const form = pick(FORMS);
    const spelling = (book: Book): string => pick(form.portuguese ? book.spellings.filter((name) => resolveBookName(name) !== undefined) : book.spellings);
    if (kind < 0.4 && !form.hidden) {
      const a = pick(ALLOWED);
      const book = spelling(a.book);
      const text = form.render(pick, book, a.chapter, a.verse, a.book.slug);
      planted.push({ text, form: form.name, allowed: true, citation: `${a.book.canonical} ${a.chapter}:${a.verse}`, verbatim: !form.reordered });
      return text;
    }
    if (kind < 0.55) {
      // an allowed verse with a disallowed one appended
      const a = ALLOWED[Math.floor(random() * 2)] as (typeof ALLOWED)[number];
      const n = unique();
      const how = pick([` e ${n}`, `, v. ${n}`, `.${n}`, ` e versículo ${n}`]);
      const text = `${pick(a.book.spellings)} ${a.chapter}:${a.verse}${how}`;
      planted.push({ text, form: `continuation "${how.replace(String(n), "N")}"`, allowed: true, citation: `${a.book.canonical} ${a.chapter}:${a.verse}` });
      planted.push({ text, form: "continuation", allowed: false, forbidden: [String(n)] });
      return text;
    }
    if (kind < 0.65 && outsideLeft.length > 0) {
      const name = outsideLeft.splice(Math.floor(random() * outsideLeft.length), 1)[0] as string;
      const n = unique();
      const text = form.hidden || form.name === "url" || form.name === "link" ? `${name} 3:${n}` : form.render(pick, name, 3, n, "x");
      const number = form.words ? inWords(n) : String(n);
      const forbidden = [number, name.replace(/^\d+ /, "")];
      if (form.written) forbidden.push(form.written(n));
      planted.push({ text, form: `outside canon, ${form.name}`, allowed: false, forbidden });
      return text;
    }
    const book = pick(CANON_DISALLOWED);
    const chapter = 1 + Math.floor(random() * 30);
    const n = unique();
    const written = form.name === "url" || form.name.includes("link") ? book.spellings[0] as string : spelling(book);
    let text = form.render(pick, written, chapter, n, book.slug);
    const forbidden = [form.words ? inWords(n) : String(n)];
    if (form.written) forbidden.push(form.written(n));
    if (random() < 0.2) {
      const m = unique();
      text += `. O versículo ${m} diz o mesmo`;
      forbidden.push(String(m));
    }
    planted.push({ text, form: form.name, allowed: false, forbidden });
    return text;
  };

  const blocks: string[] = [];
  if (random() < 0.5) blocks.push(pick(HEADINGS));
  for (let b = 1 + Math.floor(random() * 3); b > 0; b--) {
    if (random() < 0.3) {
      const lines: string[] = [];
      for (let l = 1 + Math.floor(random() * 3); l > 0; l--) lines.push(pick(LINES).replace("{R}", plant));
      blocks.push(lines.join("\n"));
    } else {
      const sentences: string[] = [];
      for (let s = 1 + Math.floor(random() * 3); s > 0; s--) sentences.push(pick(SENTENCES).replace("{R}", plant));
      blocks.push(sentences.join(" "));
    }
  }
  return { answer: blocks.join("\n\n"), planted };
}

/** Plain normalisation for the oracle: what a reader sees, without formatting or invisible characters. */
export function readerText(text: string): string {
  const cyrillic = new Map(Object.entries(CYRILLIC).map(([latin, cyr]) => [cyr, latin]));
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f\u200b-\u200f\u00ad\u2060-\u2064\ufeff]/g, "")
    .replace(/./gu, (c) => cyrillic.get(c) ?? c)
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    // what a reader sees: bidi controls are invisible; right-to-left letters move beside the digits
    .replace(/[\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/[\u0590-\u05ff\u0600-\u06ff]/g, " ")
    .replace(/<\/?[a-z]+>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/[*_`~[\]]/g, "")
    .replace(/\s+/g, " ")
    .toLowerCase();
}

export interface Verdict {
  leaks: string[];
  overBlocks: string[];
  mismatches: string[];
}

/** Streams `answer` in tokens of the given sizes (cycled). */
export function streamed(answer: string, sizes: readonly number[]): { text: string; citations: string[]; removed: string[] } {
  const filter = new CitationStreamFilter(SHOWN);
  let out = "";
  let k = 0;
  for (let i = 0; i < answer.length; ) {
    const size = sizes[k++ % sizes.length] as number;
    out += filter.push(answer.slice(i, i + size));
    i += size;
  }
  out += filter.end();
  return { text: out, citations: filter.citations, removed: filter.removed };
}

/** Checks one case, batch and for each tokenisation, against the planted references. */
export function judge(c: GeneratedCase, tokenisations: ReadonlyArray<readonly number[]>): Verdict {
  const verdict: Verdict = { leaks: [], overBlocks: [], mismatches: [] };
  const batch = checkCitations(c.answer, SHOWN);
  const seen = readerText(batch.text);
  for (const p of c.planted) {
    if (p.allowed) {
      if (!batch.citations.includes(p.citation as string)) verdict.overBlocks.push(`${p.form}: ${p.text} (not cited)`);
      if (p.verbatim && !batch.text.includes(p.text)) verdict.overBlocks.push(`${p.form}: ${p.text} (not kept)`);
    } else {
      for (const token of p.forbidden ?? []) {
        const re = new RegExp(`(?<![\\p{L}\\p{N}])${readerText(token).replace(/\s+/g, " ")}(?![\\p{L}\\p{N}])`, "u");
        if (re.test(seen)) verdict.leaks.push(`${p.form}: ${p.text} (left "${token}")`);
      }
    }
  }
  for (const sizes of tokenisations) {
    const s = streamed(c.answer, sizes);
    if (s.text !== batch.text || s.citations.join("|") !== batch.citations.join("|") || s.removed.join("|") !== batch.removed.join("|")) {
      verdict.mismatches.push(`tokens ${sizes.join(",")}: ${JSON.stringify(s.text)} != ${JSON.stringify(batch.text)}`);
    }
  }
  return verdict;
}

/** Token sizes 1-4, a few random cycles of them. */
export function tokenisations(random: () => number, count: number): number[][] {
  const out: number[][] = [[1]];
  for (let i = 1; i < count; i++) out.push(Array.from({ length: 5 }, () => 1 + Math.floor(random() * 4)));
  return out;
}
