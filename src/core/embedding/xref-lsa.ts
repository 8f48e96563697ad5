/**
 * Cross-reference LSA ("xref-LSA"): the offline dense model of ./lsa.ts, learned from documents
 * that carry readers' topical knowledge. Each verse's training document is the verse itself plus
 * the texts of the verses OpenBible.info readers link it with (both directions, most voted
 * first), so ISA 41:10 ("não temas") is learned next to DEU 31:6 ("nem tenhais medo"), JOS 1:9 …
 * and the model can bridge the asker's words to the Bible's.
 *
 * Training (see {@link trainXrefLsa}):
 * - Document of verse i (a bag of `analyze()` terms with real-valued counts):
 *   `verseWeight × terms(i) + linkWeight × Σ_{j ∈ links(i)} terms(j)`, where links(i) are the
 *   `linksPerVerse` most voted verses linked to or from i ({@link linkNeighbours}).
 * - Row weights `log(1 + tf) × idf` (idf = ln(N / df)), rows L2-normalised, randomized SVD
 *   (./linalg.ts), projection rows `V·Σ^(α−1)` divided by their norm^γ — exactly as in ./lsa.ts.
 *
 * Embedding:
 * - Queries: the LSA fold-in, `normalise(Σ_terms log(1+tf)·idf · projectionRow(term))`.
 * - Documents (what the index stores for a verse): the same fold-in of the weighted bag
 *   `verseWeight × verse + contextWeight × neighbouring verses + documentLinkWeight × linked
 *   verses` ({@link XrefLsaModel.embedDocument}). Through the {@link Embedder} interface a
 *   document is a string made by {@link encodeXrefDocument}; a plain string is folded in like a
 *   query.
 *
 * Measured with scripts/dense-experiments.ts on eval/semantic-own.jsonl (102 questions in the
 * asker's own words; settings chosen on the odd half, figures from the even half), against the
 * window LSA of ./lsa.ts:
 * - dense only: nDCG@10 0.039 → 0.137, hit@10 0.24 → 0.41, MRR@10 0.10 → 0.26; on 24
 *   narrative/quotation queries (regression check) nDCG@10 0.386 → 0.409;
 * - behind the full engine (BM25 + expansions + cross-reference pull-in + RRF, defaults tuned
 *   for the old LSA): semantic nDCG@10 0.086 → 0.124, MRR@10 0.20 → 0.23; narrative/quotation
 *   0.495 → 0.451 (exact quotations lose a rank or two to verses their readers link).
 * Training WITHOUT the context window but indexing WITH it (weight 0.5) was the best balance:
 * windows in training dilute a verse's topic with the surrounding story, while indexed
 * documents without them lose the narrative queries. Linked verses weigh less in indexed
 * documents (0.25) than in training (0.5), so a verse's own words keep the upper hand.
 */
import { createHash } from "node:crypto";
import { ANALYZER_VERSION, analyze } from "../analysis/analyze.js";
import type { AccentRestorer } from "../analysis/analyze.js";
import type { CrossReferenceIndex } from "../bible/cross-references.js";
import type { Embedder, EmbedKind } from "./embedder.js";
import { randomizedSvd } from "./linalg.js";
import type { CsrMatrix } from "./linalg.js";

/** A reader-voted link between two verses, given as indices into the training verse array. */
export interface XrefLink {
  from: number;
  to: number;
  /** OpenBible.info votes; links with votes ≤ 0 are ignored. */
  votes: number;
}

export interface XrefLsaOptions {
  /** Embedding dimensions (clamped to the vocabulary and document counts). Default 256. */
  dimensions?: number;
  /** Linked verses added to each verse's document (most voted first, both directions). Default 10. */
  linksPerVerse?: number;
  /** Weight of the verse's own terms in its document. Default 2. */
  verseWeight?: number;
  /** Weight of each linked verse's terms in a TRAINING document. Default 0.5. */
  linkWeight?: number;
  /**
   * Weight of each linked verse's terms in an INDEXED document. Default 0.25: lower than in
   * training, so a verse's own words keep the upper hand when it is retrieved (quotations and
   * stories) while its readers' links still pull it towards the asker's words.
   */
  documentLinkWeight?: number;
  /** Weight of the neighbouring verses' terms in an indexed document (not used in training). Default 0.5. */
  contextWeight?: number;
  /** A term must occur in at least this many training documents. Default 2. */
  minDocFreq?: number;
  /** Terms in more than this share of the training documents are dropped. Default 0.5. */
  maxDocFreqRatio?: number;
  /** Randomized SVD oversampling. Default 16. */
  oversample?: number;
  /** Randomized SVD power iterations. Default 2 (1 is ~25% faster; the eval figures moved within noise). */
  powerIterations?: number;
  /** PRNG seed of the random projection. Default 0x5eed. */
  seed?: number;
  /** α in `U·Σ^α` (see ./lsa.ts). Default 1. */
  sigmaExponent?: number;
  /** γ: each projection row divided by its norm^γ (see ./lsa.ts). Default 0.5. */
  termNormExponent?: number;
}

export type ResolvedXrefLsaOptions = Required<XrefLsaOptions>;

export const XREF_LSA_DEFAULTS: ResolvedXrefLsaOptions = Object.freeze({
  dimensions: 256,
  linksPerVerse: 10,
  verseWeight: 2,
  linkWeight: 0.5,
  documentLinkWeight: 0.25,
  contextWeight: 0.5,
  minDocFreq: 2,
  maxDocFreqRatio: 0.5,
  oversample: 16,
  powerIterations: 2,
  seed: 0x5eed,
  sigmaExponent: 1,
  termNormExponent: 0.5,
});

const FORMAT_MAGIC = "PXLS";
const FORMAT_VERSION = 1;
/** Bumped when training or embedding changes meaning; part of the id. */
const MODEL_VERSION = "v1";
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

// ---------------------------------------------------------------------------------------------
// Links

/**
 * For each of `verseCount` verses, the indices of the (at most `limit`) verses it is linked with,
 * in either direction, most voted first (ties: lower index first). A pair linked both ways, or
 * twice, counts once with its highest vote. Self links and links with votes ≤ 0 are ignored.
 * @throws {RangeError} on an index outside `0 … verseCount − 1`.
 */
export function linkNeighbours(verseCount: number, links: readonly XrefLink[], limit: number): number[][] {
  const best: Map<number, number>[] = Array.from({ length: verseCount }, () => new Map<number, number>());
  for (const { from, to, votes } of links) {
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < 0 || from >= verseCount || to >= verseCount) {
      throw new RangeError(`linkNeighbours: link ${from} → ${to} is outside 0…${verseCount - 1}`);
    }
    if (from === to || !(votes > 0)) continue;
    const a = best[from] as Map<number, number>;
    const b = best[to] as Map<number, number>;
    if ((a.get(to) ?? 0) < votes) a.set(to, votes);
    if ((b.get(from) ?? 0) < votes) b.set(from, votes);
  }
  return best.map((candidates) =>
    [...candidates]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, Math.max(0, limit))
      .map(([index]) => index),
  );
}

/** A verse's coordinate as the link collector needs it (a `Verse` fits). */
export interface LinkableVerse {
  /** Translation file; links never leave it. Optional (one translation). */
  source?: string;
  book: string;
  chapter: number;
  verse: number;
}

/**
 * The OpenBible.info links among `verses`, as index pairs for {@link trainXrefLsa} and
 * {@link linkNeighbours}. A link to a range counts for its first `maxRangeVerses` verses (default
 * 3) when the range stays in one chapter, else for its first verse only. Targets absent from
 * `verses` are skipped; a link stays inside its verse's `source` (each translation of a multi-
 * translation index gets its own links). When a coordinate occurs twice in one source, links
 * point to its first occurrence.
 */
export function collectXrefLinks(
  verses: readonly LinkableVerse[],
  index: Pick<CrossReferenceIndex, "linksFrom">,
  options: { maxRangeVerses?: number; minVotes?: number } = {},
): XrefLink[] {
  const maxRange = Math.max(1, options.maxRangeVerses ?? 3);
  const minVotes = options.minVotes ?? 1;
  const keyOf = (source: string | undefined, book: string, chapter: number, verse: number) => `${source ?? ""}|${book} ${chapter}:${verse}`;
  const position = new Map<string, number>();
  verses.forEach((v, i) => {
    const key = keyOf(v.source, v.book, v.chapter, v.verse);
    if (!position.has(key)) position.set(key, i);
  });
  const links: XrefLink[] = [];
  verses.forEach((v, from) => {
    for (const target of index.linksFrom(v.book, v.chapter, v.verse)) {
      if (target.votes < minVotes) continue;
      const last = target.endChapter === target.chapter ? Math.min(target.endVerse, target.verse + maxRange - 1) : target.verse;
      for (let verse = target.verse; verse <= last; verse++) {
        const to = position.get(keyOf(v.source, target.book, target.chapter, verse));
        if (to !== undefined && to !== from) links.push({ from, to, votes: target.votes });
      }
    }
  });
  return links;
}

// ---------------------------------------------------------------------------------------------
// Document strings

/** The three parts of an indexed verse's document. */
export interface XrefDocumentParts {
  /** The verse's own text. */
  verse: string;
  /** Its neighbouring verses (the context window), space-joined; may be empty. */
  context?: string;
  /** Texts of its linked verses ({@link linkNeighbours}); may be empty. */
  links?: readonly string[];
}

const PART_SEPARATOR = "\u001d";
const LINK_SEPARATOR = "\u001e";

/**
 * Encodes a verse's document parts as one string for {@link Embedder.embed} (kind "document"):
 * `verse GS context GS link1 RS link2 …` (GS = U+001D, RS = U+001E). The separators are neither
 * letters nor digits, so any other embedder reading the string simply sees all the words.
 */
export function encodeXrefDocument(parts: XrefDocumentParts): string {
  const clean = (text: string) => text.replaceAll(PART_SEPARATOR, " ").replaceAll(LINK_SEPARATOR, " ");
  return [clean(parts.verse), clean(parts.context ?? ""), (parts.links ?? []).map(clean).join(LINK_SEPARATOR)].join(PART_SEPARATOR);
}

/** Inverse of {@link encodeXrefDocument}; undefined for a string without the separator. */
export function decodeXrefDocument(text: string): XrefDocumentParts | undefined {
  if (!text.includes(PART_SEPARATOR)) return undefined;
  const [verse = "", context = "", links = ""] = text.split(PART_SEPARATOR);
  return { verse, context, links: links === "" ? [] : links.split(LINK_SEPARATOR) };
}

/**
 * The encoded documents of a whole verse array (one per verse, same order): each verse's text,
 * its context window (`contextBefore` + `contextAfter`) and the texts of its `neighbours`
 * ({@link linkNeighbours} over the same array, `limit` = the model's `linksPerVerse`).
 */
export function encodeXrefDocuments(
  verses: readonly { text: string; contextBefore?: string; contextAfter?: string }[],
  neighbours: readonly (readonly number[])[],
): string[] {
  return verses.map((verse, i) =>
    encodeXrefDocument({
      verse: verse.text,
      context: [verse.contextBefore ?? "", verse.contextAfter ?? ""].filter((part) => part !== "").join(" "),
      links: (neighbours[i] ?? []).map((j) => verses[j]?.text ?? ""),
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The model

/** Analysed terms of a verse's document parts (as `analyze` returns them). */
export interface XrefDocumentTerms {
  verse: readonly string[];
  context?: readonly string[];
  links?: readonly (readonly string[])[];
}

interface XrefLsaModelParts {
  id: string;
  options: ResolvedXrefLsaOptions;
  analyzerVersion: string;
  documentCount: number;
  terms: readonly string[];
  idf: Float32Array;
  singularValues: Float32Array;
  projection: Float32Array;
  dimensions: number;
}

function addWeighted(bag: Map<string, number>, terms: readonly string[], weight: number): void {
  if (weight === 0) return;
  for (const term of terms) bag.set(term, (bag.get(term) ?? 0) + weight);
}

export class XrefLsaModel {
  /** `xlsa:v1:d<dims>:<16 hex>`, digest of the training terms, links, options and analyzer version. */
  readonly id: string;
  readonly dimensions: number;
  readonly options: ResolvedXrefLsaOptions;
  readonly analyzerVersion: string;
  readonly documentCount: number;
  /** Terms in column order. */
  readonly terms: readonly string[];
  readonly vocabulary: ReadonlyMap<string, number>;
  /** ln(N / df) per column. */
  readonly idf: Float32Array;
  readonly singularValues: Float32Array;
  /** Rows of `V·Σ^(α−1)`, each divided by its norm^γ: terms × dimensions, row-major. */
  readonly projection: Float32Array;

  constructor(parts: XrefLsaModelParts) {
    const m = parts.terms.length;
    if (parts.idf.length !== m) throw new RangeError("XrefLsaModel: idf length differs from the vocabulary");
    if (parts.singularValues.length !== parts.dimensions) throw new RangeError("XrefLsaModel: singular values length");
    if (parts.projection.length !== m * parts.dimensions) throw new RangeError("XrefLsaModel: projection shape");
    this.id = parts.id;
    this.dimensions = parts.dimensions;
    this.options = Object.freeze({ ...parts.options });
    this.analyzerVersion = parts.analyzerVersion;
    this.documentCount = parts.documentCount;
    this.terms = Object.freeze([...parts.terms]);
    this.vocabulary = new Map(parts.terms.map((term, column) => [term, column]));
    this.idf = parts.idf;
    this.singularValues = parts.singularValues;
    this.projection = parts.projection;
  }

  /**
   * Fold-in of a bag of terms with (possibly fractional) counts:
   * `normalise(Σ log(1 + count)·idf · projectionRow)`. All-zero when no term is known.
   */
  embedBag(bag: ReadonlyMap<string, number>): Float32Array {
    const k = this.dimensions;
    const out = new Float32Array(k);
    const acc = new Float64Array(k);
    let any = false;
    for (const [term, count] of bag) {
      const column = this.vocabulary.get(term);
      if (column === undefined || !(count > 0)) continue;
      const weight = Math.log1p(count) * (this.idf[column] as number);
      if (weight === 0) continue;
      any = true;
      const base = column * k;
      for (let c = 0; c < k; c++) acc[c] = (acc[c] as number) + weight * (this.projection[base + c] as number);
    }
    if (!any) return out;
    let norm = 0;
    for (let c = 0; c < k; c++) norm += (acc[c] as number) * (acc[c] as number);
    if (norm === 0) return out;
    const inv = 1 / Math.sqrt(norm);
    for (let c = 0; c < k; c++) out[c] = (acc[c] as number) * inv;
    return out;
  }

  /** Query fold-in of analysed terms (each occurrence counts 1). */
  embedTerms(terms: readonly string[]): Float32Array {
    const bag = new Map<string, number>();
    addWeighted(bag, terms, 1);
    return this.embedBag(bag);
  }

  /**
   * Query fold-in of a text. Unit length, or ALL-ZERO when no word of the text is in the
   * vocabulary (callers treat that as "no dense signal"). `restoreAccents` goes to `analyze`.
   */
  embedText(text: string, restoreAccents?: AccentRestorer): Float32Array {
    return this.embedTerms(analyze(text, restoreAccents));
  }

  /** Document fold-in of analysed parts, weighted by the model's verse/context/link weights. */
  embedDocumentTerms(parts: XrefDocumentTerms): Float32Array {
    const bag = new Map<string, number>();
    addWeighted(bag, parts.verse, this.options.verseWeight);
    addWeighted(bag, parts.context ?? [], this.options.contextWeight);
    for (const link of parts.links ?? []) addWeighted(bag, link, this.options.documentLinkWeight);
    return this.embedBag(bag);
  }

  /** Document fold-in of a verse, its context window and its linked verses' texts. */
  embedDocument(parts: XrefDocumentParts, restoreAccents?: AccentRestorer): Float32Array {
    return this.embedDocumentTerms({
      verse: analyze(parts.verse, restoreAccents),
      context: analyze(parts.context ?? "", restoreAccents),
      links: (parts.links ?? []).map((text) => analyze(text, restoreAccents)),
    });
  }

  /**
   * Binary form: "PXLS", uint32 LE format version, uint32 LE header length, the header JSON
   * (id, options, analyzer version, counts, vocabulary) padded with spaces to a multiple of 4
   * bytes, then little-endian Float32 arrays: idf, singular values, projection.
   */
  serialize(): Buffer {
    const header = {
      format: "xref-lsa",
      id: this.id,
      dimensions: this.dimensions,
      documentCount: this.documentCount,
      analyzerVersion: this.analyzerVersion,
      options: this.options,
      terms: this.terms,
    };
    let json = JSON.stringify(header);
    const padding = (4 - ((12 + Buffer.byteLength(json, "utf8")) % 4)) % 4;
    json += " ".repeat(padding);
    const jsonBytes = Buffer.from(json, "utf8");
    const floats = this.idf.length + this.singularValues.length + this.projection.length;
    const out = Buffer.alloc(12 + jsonBytes.length + floats * 4);
    out.write(FORMAT_MAGIC, 0, "latin1");
    out.writeUInt32LE(FORMAT_VERSION, 4);
    out.writeUInt32LE(jsonBytes.length, 8);
    jsonBytes.copy(out, 12);
    let offset = 12 + jsonBytes.length;
    for (const array of [this.idf, this.singularValues, this.projection]) {
      if (LITTLE_ENDIAN) {
        out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
        offset += array.byteLength;
      } else {
        for (let i = 0; i < array.length; i++, offset += 4) out.writeFloatLE(array[i] as number, offset);
      }
    }
    return out;
  }

  /** Inverse of {@link serialize}; throws on anything that is not a model of this format. */
  static deserialize(buffer: Uint8Array): XrefLsaModel {
    const buf = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    if (buf.length < 12 || buf.toString("latin1", 0, 4) !== FORMAT_MAGIC) throw new Error("xref-LSA model: not a PXLS file");
    const version = buf.readUInt32LE(4);
    if (version !== FORMAT_VERSION) throw new Error(`xref-LSA model: unsupported format version ${version}`);
    const headerLength = buf.readUInt32LE(8);
    if (12 + headerLength > buf.length) throw new Error("xref-LSA model: truncated header");
    const header = JSON.parse(buf.toString("utf8", 12, 12 + headerLength)) as {
      format: string;
      id: string;
      dimensions: number;
      documentCount: number;
      analyzerVersion: string;
      options: ResolvedXrefLsaOptions;
      terms: string[];
    };
    if (header.format !== "xref-lsa" || !Array.isArray(header.terms)) throw new Error("xref-LSA model: bad header");
    const m = header.terms.length;
    const k = header.dimensions;
    let offset = 12 + headerLength;
    const expected = offset + 4 * (m + k + m * k);
    if (buf.length !== expected) throw new Error(`xref-LSA model: expected ${expected} bytes, got ${buf.length}`);
    const readFloats = (count: number): Float32Array => {
      const array = new Float32Array(count);
      if (LITTLE_ENDIAN) {
        new Uint8Array(array.buffer).set(buf.subarray(offset, offset + count * 4));
        offset += count * 4;
      } else {
        for (let i = 0; i < count; i++, offset += 4) array[i] = buf.readFloatLE(offset);
      }
      return array;
    };
    const idf = readFloats(m);
    const singularValues = readFloats(k);
    const projection = readFloats(m * k);
    return new XrefLsaModel({
      id: header.id,
      options: { ...XREF_LSA_DEFAULTS, ...header.options },
      analyzerVersion: header.analyzerVersion,
      documentCount: header.documentCount,
      terms: header.terms,
      idf,
      singularValues,
      projection,
      dimensions: k,
    });
  }
}

/** Same as {@link XrefLsaModel.deserialize}. */
export function deserializeXrefLsa(buffer: Uint8Array): XrefLsaModel {
  return XrefLsaModel.deserialize(buffer);
}

// ---------------------------------------------------------------------------------------------
// Training

export interface XrefLsaTrainingStats {
  documents: number;
  links: number;
  vocabulary: number;
  nonZeros: number;
  analyzeMs: number;
  svdMs: number;
  totalMs: number;
}

/**
 * Learns the model from the verses' texts (one entry per verse, in any fixed order) and the
 * reader links among them (indices into `verses`, e.g. from {@link collectXrefLinks}).
 * Deterministic: the same inputs and options give the same model, bytes and id.
 */
export function trainXrefLsa(
  verses: readonly string[],
  links: readonly XrefLink[],
  options: XrefLsaOptions = {},
  onStats?: (stats: XrefLsaTrainingStats) => void,
): XrefLsaModel {
  const started = performance.now();
  return trainFromTerms(verses.map((text) => analyze(text)), links, resolveOptions(options), started, onStats);
}

/** As {@link trainXrefLsa}, from verses already run through `analyze` (the model is the same). */
export function trainXrefLsaFromTerms(
  verseTerms: readonly (readonly string[])[],
  links: readonly XrefLink[],
  options: XrefLsaOptions = {},
  onStats?: (stats: XrefLsaTrainingStats) => void,
): XrefLsaModel {
  return trainFromTerms(verseTerms, links, resolveOptions(options), performance.now(), onStats);
}

function resolveOptions(options: XrefLsaOptions): ResolvedXrefLsaOptions {
  const resolved: ResolvedXrefLsaOptions = { ...XREF_LSA_DEFAULTS };
  for (const key of Object.keys(XREF_LSA_DEFAULTS) as (keyof ResolvedXrefLsaOptions)[]) {
    const value = options[key];
    if (value !== undefined) resolved[key] = value;
  }
  const nonNegativeInt = (value: number) => Number.isInteger(value) && value >= 0;
  if (!Number.isInteger(resolved.dimensions) || resolved.dimensions < 1) throw new RangeError("dimensions must be a positive integer");
  if (!nonNegativeInt(resolved.linksPerVerse)) throw new RangeError("linksPerVerse must be an integer ≥ 0");
  for (const key of ["verseWeight", "linkWeight", "documentLinkWeight", "contextWeight"] as const) {
    if (!(resolved[key] >= 0 && Number.isFinite(resolved[key]))) throw new RangeError(`${key} must be a finite number ≥ 0`);
  }
  if (!(resolved.verseWeight > 0)) throw new RangeError("verseWeight must be > 0");
  if (!(resolved.maxDocFreqRatio > 0 && resolved.maxDocFreqRatio <= 1)) throw new RangeError("maxDocFreqRatio must be in (0, 1]");
  if (!nonNegativeInt(resolved.oversample)) throw new RangeError("oversample must be ≥ 0");
  if (!nonNegativeInt(resolved.powerIterations)) throw new RangeError("powerIterations must be ≥ 0");
  resolved.seed = resolved.seed >>> 0;
  return resolved;
}

function digestOf(
  verseTerms: readonly (readonly string[])[],
  neighbours: readonly (readonly number[])[],
  options: ResolvedXrefLsaOptions,
): string {
  const hash = createHash("sha256");
  hash.update(`${MODEL_VERSION}\n${ANALYZER_VERSION}\n${JSON.stringify(options)}\n${verseTerms.length}\n`);
  verseTerms.forEach((terms, i) => {
    const text = terms.join(" ");
    hash.update(`${Buffer.byteLength(text, "utf8")}:`);
    hash.update(text, "utf8");
    hash.update(`|${(neighbours[i] ?? []).join(",")}\n`);
  });
  return hash.digest("hex").slice(0, 16);
}

function trainFromTerms(
  verseTerms: readonly (readonly string[])[],
  links: readonly XrefLink[],
  options: ResolvedXrefLsaOptions,
  started: number,
  onStats?: (stats: XrefLsaTrainingStats) => void,
): XrefLsaModel {
  const n = verseTerms.length;
  const neighbours = linkNeighbours(n, links, options.linksPerVerse);
  const digest = digestOf(verseTerms, neighbours, options);

  // Documents: verseWeight × the verse + linkWeight × each linked verse.
  const documents: Map<string, number>[] = verseTerms.map((terms, i) => {
    const bag = new Map<string, number>();
    addWeighted(bag, terms, options.verseWeight);
    for (const j of neighbours[i] ?? []) addWeighted(bag, verseTerms[j] ?? [], options.linkWeight);
    return bag;
  });
  const df = new Map<string, number>();
  for (const bag of documents) for (const term of bag.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const maxDf = Math.floor(options.maxDocFreqRatio * n);
  const terms = [...df.entries()]
    .filter(([, count]) => count >= options.minDocFreq && count <= maxDf)
    .map(([term]) => term)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const m = terms.length;
  if (m === 0) {
    throw new RangeError(
      `trainXrefLsa: no term passes the document-frequency filters (${n} documents, ` +
        `minDocFreq ${options.minDocFreq}, maxDocFreqRatio ${options.maxDocFreqRatio})`,
    );
  }
  const vocabulary = new Map(terms.map((term, column) => [term, column]));
  const idf = new Float32Array(m);
  terms.forEach((term, column) => {
    idf[column] = Math.log(n / (df.get(term) as number));
  });
  const analyzeMs = performance.now() - started;

  // Sparse document × term matrix, rows L2-normalised.
  const indptr = new Int32Array(n + 1);
  const indexList: number[] = [];
  const valueList: number[] = [];
  documents.forEach((bag, row) => {
    const entries: [number, number][] = [];
    for (const [term, tf] of bag) {
      const column = vocabulary.get(term);
      if (column !== undefined) entries.push([column, Math.log1p(tf) * (idf[column] as number)]);
    }
    entries.sort((a, b) => a[0] - b[0]);
    let norm = 0;
    for (const [, weight] of entries) norm += weight * weight;
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (const [column, weight] of entries) {
      indexList.push(column);
      valueList.push(weight * inv);
    }
    indptr[row + 1] = indexList.length;
  });
  const matrix: CsrMatrix = {
    rows: n,
    cols: m,
    indptr,
    indices: Int32Array.from(indexList),
    values: Float64Array.from(valueList),
  };

  const svdStarted = performance.now();
  const svd = randomizedSvd(matrix, Math.min(options.dimensions, m, n), {
    oversample: options.oversample,
    powerIterations: options.powerIterations,
    seed: options.seed,
  });
  const k = svd.rank;
  const svdMs = performance.now() - svdStarted;

  const singularValues = new Float32Array(k);
  const scale = new Float64Array(k);
  const largest = svd.singularValues[0] ?? 0;
  for (let c = 0; c < k; c++) {
    const sigma = svd.singularValues[c] as number;
    singularValues[c] = sigma;
    scale[c] = sigma > 1e-9 * largest ? sigma ** (options.sigmaExponent - 1) : 0;
  }
  const projection = new Float32Array(m * k);
  for (let t = 0; t < m; t++) {
    let norm = 0;
    for (let c = 0; c < k; c++) {
      const value = (svd.rightVectors[t * k + c] as number) * (scale[c] as number);
      projection[t * k + c] = value;
      norm += value * value;
    }
    if (options.termNormExponent !== 0 && norm > 0) {
      const factor = Math.sqrt(norm) ** -options.termNormExponent;
      for (let c = 0; c < k; c++) projection[t * k + c] = (projection[t * k + c] as number) * factor;
    }
  }
  const model = new XrefLsaModel({
    id: `xlsa:${MODEL_VERSION}:d${k}:${digest}`,
    options,
    analyzerVersion: ANALYZER_VERSION,
    documentCount: n,
    terms,
    idf,
    singularValues,
    projection,
    dimensions: k,
  });
  onStats?.({
    documents: n,
    links: neighbours.reduce((sum, list) => sum + list.length, 0),
    vocabulary: m,
    nonZeros: indexList.length,
    analyzeMs,
    svdMs,
    totalMs: performance.now() - started,
  });
  return model;
}

// ---------------------------------------------------------------------------------------------
// Embedder adapter

export interface XrefLsaEmbedderOptions {
  /** Passed to `analyze` for every text. */
  restoreAccents?: AccentRestorer;
}

/** Analysed texts the document path keeps (each verse's text recurs in ~10 neighbours' documents). */
const DOCUMENT_CACHE_LIMIT = 65_536;

/**
 * The {@link Embedder} adapter. Queries (and any plain string) are folded in by
 * {@link XrefLsaModel.embedText}; a "document" made by {@link encodeXrefDocument} is embedded by
 * {@link XrefLsaModel.embedDocument}. Vectors are unit length, or all-zero when no word is known.
 * The adapter memoises the analysis of document parts (bounded), since a verse's text is read
 * again in the documents of the verses linked to it.
 */
export function createXrefLsaEmbedder(model: XrefLsaModel, options: XrefLsaEmbedderOptions = {}): Embedder {
  const cache = new Map<string, string[]>();
  const analyzed = (text: string): string[] => {
    let terms = cache.get(text);
    if (terms === undefined) {
      terms = analyze(text, options.restoreAccents);
      if (cache.size >= DOCUMENT_CACHE_LIMIT) cache.clear();
      cache.set(text, terms);
    }
    return terms;
  };
  return {
    id: model.id,
    dimensions: model.dimensions,
    embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]> {
      return Promise.resolve(
        texts.map((text) => {
          const parts = kind === "document" ? decodeXrefDocument(text) : undefined;
          if (!parts) return model.embedText(text, options.restoreAccents);
          return model.embedDocumentTerms({
            verse: analyzed(parts.verse),
            context: analyze(parts.context ?? "", options.restoreAccents),
            links: (parts.links ?? []).map(analyzed),
          });
        }),
      );
    },
  };
}
