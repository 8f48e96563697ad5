/**
 * Random USFX for the parser's property test (test/usfx.property.test.ts), from a seed: documents
 * built from USFX's own vocabulary with numbers anywhere from 0 to far beyond any bound (a
 * chapter of 400,000,000, a bridge 17-2000000000, 30 digits, signs, letters), nested, unclosed
 * and mismatched elements, entities good and bad, comments, CDATA, processing instructions and
 * DOCTYPEs; the same documents mutated byte by byte or slice by slice; and plain random bytes.
 * Each input comes with the way it is delivered (one string, string chunks, or byte chunks
 * that split multi-byte characters) and, for some, lower limits than the parser's own, so that
 * the size bounds are reached by small inputs.
 */
import { mulberry32 } from "../../src/core/index/linalg.js";
import type { UsfxLimits } from "../../src/core/sources/usfx.js";

export type Random = () => number;

export const seeded = mulberry32;

const int = (random: Random, lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const chance = (random: Random, p: number) => random() < p;

/** Numbers as a file could write them in an `id`: mostly plausible, often hostile. */
const HOSTILE_NUMBERS = [
  "0", "1", "150", "151", "176", "999", "1000", "1001", "400000000", "2000000000", "2147483648",
  "9007199254740993", "9".repeat(30), "-5", "-0", "+3", "1e9", "0x10", "", " ", " 12 ", "12a", "3b",
  "abc", "١٢", "1.5", "NaN", "Infinity",
];

/** Numbers within the bounds, the edges included. */
const FAIR_NUMBERS = ["1", "2", "150", "176", "999", "1000"];

/** How often a number is hostile in the document being generated (none in a third of them). */
let hostility = 0.3;

function number(random: Random): string {
  if (chance(random, hostility)) return pick(random, HOSTILE_NUMBERS);
  return chance(random, 0.9) ? String(int(random, 1, 200)) : pick(random, FAIR_NUMBERS);
}

function verseId(random: Random): string {
  const first = number(random);
  if (!chance(random, 0.3)) return first;
  const end = chance(random, hostility) ? String(int(random, 1, 3000)) : String(Math.min(1000, Number.parseInt(first, 10) + int(random, 0, 99)) || 1);
  return `${first}${pick(random, ["-", "–", ",", " - ", "-"])}${end}`;
}

const WORDS = ["No", "princípio", "criou", "Deus", "céus", "terra", "Jonas", "peixe", "Társis", "amor", "ação", "coração", "fé"];
const ENTITIES = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#233;", "&#x1F600;"];
const BAD_ENTITIES = ["&nbsp;", "&foo;", "&#0;", "&#xD800;", "&", "&#;"];
const ODD_TEXT = ["\u00a0", "\t", "\r\n", "\n", " ,", " .", "😀", "\u200b", ">", "'", '"'];
const BAD_TEXT = ["\u0001", "\uFFFE", "\uD800", "]]>"];

/**
 * Whether a document is meant to be well-formed (its numbers are still random): half are, so
 * that the bounds are reached past the XML parser's own checks.
 */
let clean = true;

function text(random: Random): string {
  const parts: string[] = [];
  for (let n = int(random, 0, 8); n > 0; n--) {
    const roll = random();
    if (roll < 0.7) parts.push(pick(random, WORDS));
    else if (roll < 0.85) parts.push(pick(random, clean || chance(random, 0.5) ? ENTITIES : BAD_ENTITIES));
    else parts.push(pick(random, clean || chance(random, 0.5) ? ODD_TEXT : BAD_TEXT));
    parts.push(chance(random, 0.8) ? " " : "");
  }
  return parts.join("");
}

const CONTAINERS = ["p", "q", "f", "x", "w", "add", "nd", "wj", "h", "toc", "id", "rem", "s", "d", "qt", "fig", "table", "tr", "tc", "li", "zzz", "book", "usfx"];
/** What a well-formed document nests inside a verse (a nested book ends the outer one: not USFX). */
const INNER_CONTAINERS = CONTAINERS.filter((name) => name !== "book" && name !== "usfx");
const MILESTONES = ["c", "v", "ve", "b", "optionalLineBreak", "fr", "ft", "xo", "xt"];
const ATTRIBUTES = ["id", "sfm", "style", "level", "s", "caller", "x-data"];
const SFM = ["mt", "s1", "ip", "is", "p", "q1", "sp", "d", "m", "li"];

function attributes(random: Random, name: string): string {
  const out: string[] = [];
  if (name === "c") out.push(`id="${number(random)}"`);
  else if (name === "v") out.push(`id="${verseId(random)}"`);
  else if (name === "book") out.push(`id="${pick(random, ["GEN", "JON", "PSA", "JHN", "FRT", "XYZ", "", "jon", "J".repeat(2_000)])}"`);
  // (a <book> or <usfx> picked as a container gets an id too: nested books are USFX the parser must survive)
  else if (name === "p" && chance(random, 0.4)) out.push(`sfm="${pick(random, SFM)}"`);
  else if (name === "toc") out.push(`level="${pick(random, ["1", "2", "3", "x"])}"`);
  if (chance(random, 0.1)) {
    const extra = pick(random, ATTRIBUTES);
    if (!clean || !out.some((attribute) => attribute.startsWith(`${extra}=`))) out.push(`${extra}="${text(random).replace(/[<&"]/g, "")}"`);
  }
  if (!clean && chance(random, 0.04)) out.push(`id="dup"`); // a duplicate attribute when id came first
  return out.length ? ` ${out.join(" ")}` : "";
}

/** A random element tree under a node, `depth` levels deep at most; sometimes unclosed or closed by the wrong name. */
function content(random: Random, depth: number, parts: string[]): void {
  for (let n = int(random, 0, 6); n > 0; n--) {
    const roll = random();
    if (roll < 0.35) {
      const name = pick(random, MILESTONES);
      parts.push(`<${name}${attributes(random, name)}/>`);
    } else if (roll < 0.6 && depth > 0) {
      const name = pick(random, clean ? INNER_CONTAINERS : CONTAINERS);
      parts.push(`<${name}${attributes(random, name)}>`);
      content(random, depth - 1, parts);
      const close = clean ? 0 : random();
      if (close < 0.94) parts.push(`</${name}>`);
      else if (close < 0.97) parts.push(`</${pick(random, CONTAINERS)}>`);
      // else: left unclosed
    } else if (roll < 0.9) {
      parts.push(text(random));
    } else if (clean) {
      parts.push(pick(random, ["<!-- nota -->", "<![CDATA[ <v id=\"5\"/> & ]]>", "<?pi dados?>"]));
    } else {
      parts.push(pick(random, ["<!-- -- -->", '<?xml version="1.0"?>', "<!DOCTYPE usfx>", "<", "</>", "<v id='3'", "&", `<${"n".repeat(int(random, 500, 5_000))}>`, `</${"m".repeat(int(random, 500, 5_000))}>`]));
    }
  }
}

/** A document that is USFX in shape: books, chapters and verses with random numbers, and random markup in between. */
export function randomDocument(random: Random, wellFormed = chance(random, 0.5)): string {
  clean = wellFormed;
  hostility = pick(random, [0, 0, 0.02, 0.1, 0.4]);
  const sometimes = (p: number) => !clean && chance(random, p);
  const parts: string[] = [];
  if (chance(random, 0.5)) parts.push('<?xml version="1.0" encoding="utf-8"?>\n');
  if (sometimes(0.06)) parts.push('<!DOCTYPE usfx [ <!ENTITY a "b"> ]>\n');
  parts.push(sometimes(0.06) ? pick(random, ["<html>", "<USFX>", "<usx>"]) : "<usfx>");
  for (let books = int(random, clean ? 1 : 0, 3); books > 0; books--) {
    parts.push(`<book${attributes(random, "book")}>`);
    if (chance(random, 0.5)) parts.push(`<h>${text(random)}</h>`);
    for (let chapters = int(random, 0, 4); chapters > 0; chapters--) {
      parts.push(`<c${attributes(random, "c")}/>`);
      for (let verses = int(random, 0, 6); verses > 0; verses--) {
        const paragraph = chance(random, 0.3);
        if (paragraph) parts.push("<p>");
        parts.push(`<v${attributes(random, "v")}/>`);
        content(random, int(random, 0, 5), parts);
        if (chance(random, 0.6)) parts.push("<ve/>");
        parts.push(paragraph && !sometimes(0.1) ? "</p>" : "\n");
      }
    }
    if (chance(random, 0.05)) {
      // deep nesting, closed in a well-formed document
      const depth = int(random, 20, 400);
      parts.push("<q>".repeat(depth), clean ? "</q>".repeat(depth) : "");
    }
    if (chance(random, 0.05)) parts.push(`${'<v id="1"/>a'.repeat(int(random, 40, 200))}`); // many verses
    if (chance(random, 0.05)) parts.push(`<v id="1"/>${"palavra ".repeat(int(random, 20, 500))}`); // a long verse
    if (chance(random, 0.03)) parts.push(`<!-- ${"<>".repeat(int(random, 100, 3000))} -->`); // a long comment
    if (!sometimes(0.1)) parts.push("</book>");
  }
  if (!sometimes(0.1)) parts.push("</usfx>");
  if (chance(random, 0.05)) parts.push(clean ? pick(random, ["\n\n", "<!-- fim -->"]) : pick(random, ["trailing", "<usfx/>"]));
  return parts.join("");
}

/** The document damaged a few times: bytes flipped, inserted, deleted, slices duplicated or swapped, the end cut. */
export function mutate(random: Random, document: string): Buffer {
  let bytes = Buffer.from(document, "utf8");
  for (let n = int(random, 1, 4); n > 0 && bytes.length > 0; n--) {
    const at = int(random, 0, bytes.length - 1);
    const length = int(random, 1, Math.min(64, bytes.length - at));
    switch (int(random, 0, 6)) {
      case 0: {
        const copy = Buffer.from(bytes);
        copy[at] = int(random, 0, 255);
        bytes = copy;
        break;
      }
      case 1:
        bytes = Buffer.concat([bytes.subarray(0, at), randomBytes(random, int(random, 1, 16)), bytes.subarray(at)]);
        break;
      case 2:
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + length)]);
        break;
      case 3:
        bytes = Buffer.concat([bytes.subarray(0, at + length), bytes.subarray(at, at + length), bytes.subarray(at + length)]);
        break;
      case 4:
        bytes = bytes.subarray(0, at);
        break;
      case 5: {
        const other = int(random, 0, bytes.length - 1);
        const [a, b] = at < other ? [at, other] : [other, at];
        bytes = Buffer.concat([bytes.subarray(0, a), bytes.subarray(b, b + length), bytes.subarray(a + length, b), bytes.subarray(a, a + length), bytes.subarray(b + length)]);
        break;
      }
      default: {
        const insert = pick(random, ['<c id="400000000"/>', '<v id="17-2000000000"/>', "<!DOCTYPE x>", "]]>", "<![CDATA[", "<!--", "&#x0;", "\uFEFF"]);
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(insert), bytes.subarray(at)]);
      }
    }
  }
  return bytes;
}

export function randomBytes(random: Random, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = int(random, 0, 255);
  return bytes;
}

/** One input of the property test: its content, how it is delivered, and the limits it is parsed with. */
export interface GeneratedInput {
  kind: "document" | "mutated" | "bytes";
  chunks: (string | Buffer)[];
  limits?: Partial<UsfxLimits>;
}

/** Low limits, reached by the small documents above (the parser's own are checked by the abuse suite). */
export const SMALL_LIMITS: Partial<UsfxLimits> = Object.freeze({
  versesPerFile: 60,
  verseChars: 300,
  titleChars: 40,
  textChars: 3_000,
  depth: 40,
  pendingChars: 2_000,
  fileChars: 30_000,
});

function split<T extends string | Buffer>(random: Random, whole: T): T[] {
  const pieces: T[] = [];
  let at = 0;
  while (at < whole.length) {
    const end = Math.min(whole.length, at + int(random, 1, 64));
    pieces.push(whole.slice(at, end) as T);
    at = end;
  }
  return pieces;
}

export function generateInput(random: Random): GeneratedInput {
  const roll = random();
  const kind: GeneratedInput["kind"] = roll < 0.55 ? "document" : roll < 0.9 ? "mutated" : "bytes";
  const bytes =
    kind === "bytes" ? randomBytes(random, int(random, 0, 400)) : kind === "mutated" ? mutate(random, randomDocument(random)) : Buffer.from(randomDocument(random), "utf8");
  const delivery = random();
  let chunks: (string | Buffer)[];
  // Strings are only made of documents that are valid UTF-8 (a string cannot carry broken bytes).
  if (delivery < 0.3 && kind === "document") chunks = [bytes.toString("utf8")];
  else if (delivery < 0.55 && kind === "document") chunks = split(random, bytes.toString("utf8"));
  else if (delivery < 0.8) chunks = split(random, bytes);
  else chunks = [bytes];
  return { kind, chunks, ...(chance(random, 0.5) ? { limits: SMALL_LIMITS } : {}) };
}
