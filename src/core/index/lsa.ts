/**
 * The offline dense model: Latent Semantic Analysis learned from the corpus at index time.
 *
 * Training (see {@link trainLsa}):
 * - Each training document (one context window: a verse and its neighbours) becomes a row of
 *   a sparse document×term matrix X with weights `log(1 + tf) × idf`, idf = ln(N / df), each
 *   row L2-normalised. Terms are `analyze()` output (stemmed, accent-folded, stopwords out)
 *   seen in at least `minDocFreq` documents and at most `maxDocFreqRatio` of them.
 * - X's top singular values Σ and right singular vectors V (terms × k) come from a
 *   randomized SVD (./linalg.ts) that never densifies X.
 * - The stored projection is one row per term: row t of `V·Σ^(α−1)` (α = `sigmaExponent`),
 *   divided by its own norm^γ (γ = `termNormExponent`).
 *
 * Embedding ("fold-in"): a text's terms, weighted `log(1 + tf) × idf` as in training, sum
 * their projection rows; the sum is L2-normalised. With γ = 0 this is exactly the `U·Σ^α`
 * coordinates a training document gets. Queries and documents use the same fold-in, so cosine
 * similarity between them is meaningful.
 *
 * Measured hint for callers: embedding a verse's document as its window followed by the verse
 * once more (centre emphasised) ranked the intended verse better than the bare window (25
 * hand-written queries, dense only: MRR@100 0.43 → 0.58, in the top 20 for 17 → 18 of 25).
 * The model itself is agnostic to what text it is given.
 */
import { createHash } from "node:crypto";
import { ANALYZER_VERSION, analyze, analyzeTokens } from "../analysis/analyze.js";
import type { AccentRestorer, AnalyzedToken } from "../analysis/analyze.js";
import type { Embedder, EmbedKind } from "./embedder.js";
import { randomizedSvd, type RandomizedSvdOptions, type TruncatedSvd } from "./linalg.js";
import { LsaKernel } from "./lsa-kernel.js";
import type { CsrMatrix } from "./linalg.js";

export interface LsaOptions {
  /**
   * Words (folded) that stand for themselves instead of their stem. Snowball's short stems
   * join unrelated families ("medo" and "medir" both give "med"); the lexical side answers
   * that with its exact-word rule, and a model trained with the same words learns "medo"
   * apart from "mediu". Texts are analysed with {@link lsaTerms}. Default: none.
   */
  wordTerms?: readonly string[];
  /** Dimensions of the embedding (clamped to the corpus's vocabulary and document counts). Default 256. */
  dimensions?: number;
  /** A term must occur in at least this many documents. Default 2. */
  minDocFreq?: number;
  /** Terms in more than this share of the documents are dropped. Default 0.5. */
  maxDocFreqRatio?: number;
  /** Randomized SVD oversampling. Default 16. */
  oversample?: number;
  /**
   * Randomized SVD power iterations (each one more XᵀX product plus a QR). Default 2. On the
   * corpus, 1/2/3 put σ₁..σ₁₂₈ within 6%/2.4%/1.1% of a 6-iteration run; retrieval did not move.
   */
  powerIterations?: number;
  /** PRNG seed of the random projection. Default 0x5eed. */
  seed?: number;
  /**
   * α in the embedding coordinates `U·Σ^α`: 1 is classic LSA (document coordinates scaled by
   * the singular values), 0 whitens every dimension to equal weight. Default 1 (measured).
   */
  sigmaExponent?: number;
  /**
   * Drop the first singular direction (it tends to encode overall term frequency rather than
   * topic). The model still has `dimensions` dimensions. Default false: measured no gain.
   */
  dropFirstComponent?: boolean;
  /**
   * γ: each term's projection row is divided by its norm^γ. Rare terms lie mostly outside the
   * top singular subspace, so their rows of V are short and plain fold-in (γ = 0) lets common
   * terms drown them ("pescadores de homens" ≈ "homens"); γ = 1 gives every term a unit
   * direction, which over-trusts the noisy directions of rare terms. Default 0.5 (measured).
   */
  termNormExponent?: number;
}

/** The options after defaults: what the model id is computed from and what is serialised. */
export type ResolvedLsaOptions = Required<LsaOptions>;

export const LSA_DEFAULTS: ResolvedLsaOptions = Object.freeze({
  wordTerms: [] as readonly string[],
  dimensions: 256,
  minDocFreq: 2,
  maxDocFreqRatio: 0.5,
  oversample: 16,
  powerIterations: 2,
  seed: 0x5eed,
  sigmaExponent: 1,
  dropFirstComponent: false,
  termNormExponent: 0.5,
});

const FORMAT_MAGIC = "PLSA";
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const FORMAT_VERSION = 1;
/** Bumped when training or fold-in changes meaning; part of the id. */
const MODEL_VERSION = "v1";

interface LsaModelParts {
  id: string;
  options: ResolvedLsaOptions;
  analyzerVersion: string;
  documentCount: number;
  terms: readonly string[];
  idf: Float32Array;
  singularValues: Float32Array;
  projection: Float32Array;
  dimensions: number;
}

/** A trained LSA model: vocabulary, idf, singular values and the term → vector projection. */
export class LsaModel {
  /** `lsa:v1:d<dims>:<16 hex>`, digest of the training documents, options and analyzer version. */
  readonly id: string;
  readonly dimensions: number;
  readonly options: ResolvedLsaOptions;
  /** The analyzer (`ANALYZER_VERSION`) the vocabulary was built with. */
  readonly analyzerVersion: string;
  readonly documentCount: number;
  /** Terms in column order. */
  readonly terms: readonly string[];
  /** Term → column (row of `projection`, entry of `idf`). */
  readonly vocabulary: ReadonlyMap<string, number>;
  /** `options.wordTerms` as a set. */
  readonly wordTerms: ReadonlySet<string>;
  /** ln(N / df) per column. */
  readonly idf: Float32Array;
  /** The singular values of the kept components, largest first (`dimensions` entries). */
  readonly singularValues: Float32Array;
  /** Rows of `V·Σ^(α−1)`, each divided by its norm^γ: terms × dimensions, row-major. */
  readonly projection: Float32Array;

  constructor(parts: LsaModelParts) {
    const m = parts.terms.length;
    if (parts.idf.length !== m) throw new RangeError("LsaModel: idf length differs from the vocabulary");
    if (parts.singularValues.length !== parts.dimensions) throw new RangeError("LsaModel: singular values length");
    if (parts.projection.length !== m * parts.dimensions) throw new RangeError("LsaModel: projection shape");
    this.id = parts.id;
    this.dimensions = parts.dimensions;
    this.options = Object.freeze({ ...parts.options });
    this.analyzerVersion = parts.analyzerVersion;
    this.documentCount = parts.documentCount;
    this.terms = Object.freeze([...parts.terms]);
    this.vocabulary = new Map(parts.terms.map((term, column) => [term, column]));
    this.wordTerms = new Set(parts.options.wordTerms);
    this.idf = parts.idf;
    this.singularValues = parts.singularValues;
    this.projection = parts.projection;
  }

  /**
   * The fold-in of a text: `normalise(Σ_terms log(1+tf)·idf · projectionRow(term))`.
   * Unit length — except that a text with no term of the vocabulary (empty, only stopwords,
   * unknown words) gives an ALL-ZERO vector: callers treat it as "no dense signal".
   * `restoreAccents` is passed to `analyze` (accent-less query typing, see analyze.ts).
   */
  embedText(text: string, restoreAccents?: AccentRestorer): Float32Array {
    return this.embedTerms(lsaTerms(text, this.wordTerms, restoreAccents));
  }

  /** Fold-in of already-analysed terms (as `analyze` returns them); see {@link embedText}. */
  embedTerms(terms: readonly string[]): Float32Array {
    return this.embedBag(termBag(terms));
  }

  /**
   * Fold-in of a weighted bag of terms (term → real-valued count, as {@link weightedBag}
   * builds from weighted parts): `normalise(Σ log(1+count)·idf · projectionRow(term))`.
   */
  embedBag(bag: TermBag): Float32Array {
    const k = this.dimensions;
    const acc = new Float64Array(k);
    for (const [term, tf] of bag) {
      const column = this.vocabulary.get(term);
      if (column === undefined || !(tf > 0)) continue;
      const weight = Math.log1p(tf) * (this.idf[column] as number);
      if (weight === 0) continue;
      const base = column * k;
      for (let c = 0; c < k; c++) acc[c] = (acc[c] as number) + weight * (this.projection[base + c] as number);
    }
    let norm = 0;
    for (const value of acc) norm += value * value;
    if (norm === 0) return new Float32Array(k);
    const inv = 1 / Math.sqrt(norm);
    return Float32Array.from(acc, (value) => value * inv);
  }

  /**
   * `embedBag` of many bags (an index run's documents), the weighted sums in the WebAssembly
   * kernel (./lsa-kernel.ts) when it runs: the same vectors, bit for bit. The kernel holds a copy
   * of the projection while the model lives; a serving model (one query at a time) never makes it.
   */
  embedBags(bags: readonly TermBag[]): Float32Array[] {
    const found = foldInKernel(this);
    if (!found) return bags.map((bag) => this.embedBag(bag));
    const { kernel, columns, weights, capacity } = found;
    const columnList = kernel.i32(columns, capacity);
    const weightList = kernel.f64(weights, capacity);
    return bags.map((bag) => {
      if (bag.size > capacity) return this.embedBag(bag);
      // The terms that count, in the bag's order: the kernel adds their rows in that order.
      let count = 0;
      for (const [term, tf] of bag) {
        const column = this.vocabulary.get(term);
        if (column === undefined || !(tf > 0)) continue;
        const weight = Math.log1p(tf) * (this.idf[column] as number);
        if (weight === 0) continue;
        columnList[count] = column;
        weightList[count++] = weight;
      }
      return foldInListed(this, found, count);
    });
  }

  /** The columns of `terms` in the vocabulary, in their order: a part of {@link embedColumnBags}' documents. */
  columnsOf(terms: readonly string[]): Int32Array {
    const columns: number[] = [];
    for (const term of terms) {
      const column = this.vocabulary.get(term);
      if (column !== undefined) columns.push(column);
    }
    return Int32Array.from(columns);
  }

  /**
   * {@link embedBags} of documents given as weighted parts of columns ({@link columnsOf}): the
   * vectors of the bags {@link weightedBag} would make of the parts' terms, to the bit, without
   * making them (each column counted where it is first seen, its weights added in order).
   */
  embedColumnBags(documents: readonly (readonly WeightedColumns[])[]): Float32Array[] {
    const m = this.terms.length;
    const tf = new Float64Array(m);
    const seen = new Int32Array(m).fill(-1);
    const found = foldInKernel(this);
    return documents.map((parts, document) => {
      const order: number[] = [];
      for (const { columns, weight } of parts) {
        if (!(weight > 0)) continue;
        for (const column of columns) {
          if (seen[column] !== document) {
            seen[column] = document;
            tf[column] = 0;
            order.push(column);
          }
          tf[column] = (tf[column] as number) + weight;
        }
      }
      if (!found || order.length > found.capacity) return this.embedBag(new Map(order.map((column) => [this.terms[column]!, tf[column] as number])));
      const columnList = found.kernel.i32(found.columns, found.capacity);
      const weightList = found.kernel.f64(found.weights, found.capacity);
      let count = 0;
      for (const column of order) {
        const weight = Math.log1p(tf[column] as number) * (this.idf[column] as number);
        if (weight === 0) continue;
        columnList[count] = column;
        weightList[count++] = weight;
      }
      return foldInListed(this, found, count);
    });
  }

  /**
   * Compact binary form: "PLSA", uint32 LE format version, uint32 LE header length, the
   * header JSON (id, options, analyzer version, counts, vocabulary in column order) padded
   * with spaces to a multiple of 4 bytes, then little-endian Float32 arrays: idf (terms),
   * singular values (dimensions), projection (terms × dimensions).
   */
  serialize(): Buffer {
    const header = {
      format: "lsa",
      id: this.id,
      dimensions: this.dimensions,
      documentCount: this.documentCount,
      analyzerVersion: this.analyzerVersion,
      options: this.options,
      terms: this.terms,
    };
    const json = JSON.stringify(header);
    const padding = (4 - ((12 + Buffer.byteLength(json, "utf8")) % 4)) % 4;
    const jsonBytes = Buffer.from(json + " ".repeat(padding), "utf8");
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
  static deserialize(buffer: Uint8Array): LsaModel {
    const buf = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    if (buf.length < 12 || buf.toString("latin1", 0, 4) !== FORMAT_MAGIC) {
      throw new Error("LSA model: not a PLSA file");
    }
    const version = buf.readUInt32LE(4);
    if (version !== FORMAT_VERSION) throw new Error(`LSA model: unsupported format version ${version}`);
    const headerLength = buf.readUInt32LE(8);
    if (12 + headerLength > buf.length) throw new Error("LSA model: truncated header");
    const header = JSON.parse(buf.toString("utf8", 12, 12 + headerLength)) as {
      format: string;
      id: string;
      dimensions: number;
      documentCount: number;
      analyzerVersion: string;
      options: ResolvedLsaOptions;
      terms: string[];
    };
    if (header.format !== "lsa" || !Array.isArray(header.terms)) throw new Error("LSA model: bad header");
    const m = header.terms.length;
    const k = header.dimensions;
    let offset = 12 + headerLength;
    const expected = offset + 4 * (m + k + m * k);
    if (buf.length !== expected) throw new Error(`LSA model: expected ${expected} bytes, got ${buf.length}`);
    const readFloats = (count: number): Float32Array => {
      const array = new Float32Array(count);
      if (LITTLE_ENDIAN) {
        // Copy (the buffer's offset need not be 4-byte aligned).
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
    return new LsaModel({
      id: header.id,
      options: { ...LSA_DEFAULTS, ...header.options },
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

/** Each model's fold-in kernel (its projection copied in, room for a bag's terms and the sums), made on its first batch. */
interface FoldInKernel {
  kernel: LsaKernel;
  projection: number;
  acc: number;
  columns: number;
  weights: number;
  /** The most terms a bag may have to be folded in by the kernel (a larger one takes the plain loop). */
  capacity: number;
}
const foldInKernels = new WeakMap<LsaModel, FoldInKernel | null>();
const FOLD_IN_TERMS = 1 << 16;

function foldInKernel(model: LsaModel): FoldInKernel | undefined {
  let found = foldInKernels.get(model);
  if (found === undefined) {
    const made = LsaKernel.create([model.projection.byteLength, model.dimensions * 8, FOLD_IN_TERMS * 4, FOLD_IN_TERMS * 8]);
    found = made ? { kernel: made.kernel, projection: made.at[0]!, acc: made.at[1]!, columns: made.at[2]!, weights: made.at[3]!, capacity: FOLD_IN_TERMS } : null;
    if (found) found.kernel.f32(found.projection, model.projection.length).set(model.projection);
    foldInKernels.set(model, found);
  }
  return found ?? undefined;
}

/** The fold-in of the `count` columns and weights listed in the kernel: the weighted sum of their rows, normalised. */
function foldInListed(model: LsaModel, found: FoldInKernel, count: number): Float32Array {
  const k = model.dimensions;
  found.kernel.run.foldIn(found.columns, found.weights, count, found.projection, k, found.acc);
  const sums = found.kernel.f64(found.acc, k);
  let norm = 0;
  for (let c = 0; c < k; c++) norm += (sums[c] as number) * (sums[c] as number);
  const vector = new Float32Array(k);
  if (norm === 0) return vector;
  const inv = 1 / Math.sqrt(norm);
  // Indexed loops: `Float32Array.from(sums, map)` calls back per entry (a third of an index run's fold-in).
  for (let c = 0; c < k; c++) vector[c] = (sums[c] as number) * inv;
  return vector;
}

/** Same as {@link LsaModel.deserialize}. */
export function deserializeLsa(buffer: Uint8Array): LsaModel {
  return LsaModel.deserialize(buffer);
}

/** Training figures, for logs and benchmarks. */
export interface LsaTrainingStats {
  documents: number;
  vocabulary: number;
  nonZeros: number;
  analyzeMs: number;
  svdMs: number;
  totalMs: number;
}

/**
 * Learns an LSA model from the documents (for this project: the corpus's context windows).
 * Deterministic: the same documents and options give the same model, bytes and id.
 * `onStats` receives timing figures.
 */
export function trainLsa(
  documents: readonly string[],
  options: LsaOptions = {},
  onStats?: (stats: LsaTrainingStats) => void,
): LsaModel {
  const started = performance.now();
  const resolved = resolveOptions(options);
  const analyzed = documents.map((document) => termBag(analyze(document)));
  return trainFromBags(analyzed, resolved, lsaDigest(documents, resolved), started, onStats);
}

/**
 * As {@link trainLsa}, from documents already run through `analyze` (lets an index build
 * analyse each window once for both BM25 and LSA). The id then digests the terms (joined by
 * spaces), so it differs from the id `trainLsa` gives for the raw texts; the model is the same.
 */
export function trainLsaFromTerms(
  documentTerms: readonly (readonly string[])[],
  options: LsaOptions = {},
  onStats?: (stats: LsaTrainingStats) => void,
): LsaModel {
  const started = performance.now();
  const resolved = resolveOptions(options);
  const digest = lsaDigest(documentTerms.map((terms) => terms.join(" ")), resolved);
  return trainFromBags(documentTerms.map((terms) => termBag(terms)), resolved, digest, started, onStats);
}

/**
 * As {@link trainLsaFromTerms}, from weighted bags of terms: a document may weigh some of its
 * parts more than others (a verse's own words above the verses readers link it with). The id
 * digests every bag (terms sorted, with their weights).
 */
export function trainLsaFromBags(bags: readonly TermBag[], options: LsaOptions = {}, onStats?: (stats: LsaTrainingStats) => void): LsaModel {
  const started = performance.now();
  const resolved = resolveOptions(options);
  return trainFromBags(bags, resolved, bagsDigest(bags, resolved), started, onStats);
}

/** A randomized SVD run elsewhere (another thread): {@link randomizedSvd}'s inputs, its result to the bit. */
export type SvdRunner = (matrix: CsrMatrix, rank: number, options: RandomizedSvdOptions) => Promise<TruncatedSvd>;

/**
 * As {@link trainLsaFromBags}, with the SVD (most of the training) run by `svd`: the digest of
 * the bags is computed while it runs, and the caller's thread is free for other work until it
 * ends. The same bags and options give the same model, to the bit, as the synchronous path.
 */
export async function trainLsaFromBagsWith(
  bags: readonly TermBag[],
  options: LsaOptions,
  svd: SvdRunner,
  onStats?: (stats: LsaTrainingStats) => void,
): Promise<LsaModel> {
  const started = performance.now();
  const resolved = resolveOptions(options);
  const problem = lsaProblem(bags, resolved, started);
  const svdStarted = performance.now();
  const running = svd(problem.matrix, problem.rank, svdOptions(resolved));
  const digest = bagsDigest(bags, resolved);
  const decomposed = await running;
  return modelFromSvd(problem, decomposed, resolved, digest, { started, svdMs: performance.now() - svdStarted }, onStats);
}

/**
 * The id's digest of weighted bags: every bag's terms sorted, with their weights. The terms are
 * ranked once in the order `sort()` gives strings, so each bag sorts numbers (a third of the
 * time of sorting its strings, on the Bible); the text digested is the same.
 */
function bagsDigest(bags: readonly TermBag[], options: ResolvedLsaOptions): string {
  const distinct = new Set<string>();
  for (const bag of bags) for (const term of bag.keys()) distinct.add(term);
  const sorted = [...distinct].sort();
  const rank = new Map(sorted.map((term, i) => [term, i]));
  return lsaDigest(
    bags.map((bag) => {
      const ranks = Int32Array.from(bag.keys(), (term) => rank.get(term) as number).sort();
      let text = "";
      for (let i = 0; i < ranks.length; i++) {
        const term = sorted[ranks[i] as number] as string;
        text += `${i === 0 ? "" : " "}${term}*${bag.get(term)}`;
      }
      return text;
    }),
    options,
  );
}

/**
 * The terms an LSA model sees in a text: `analyze`'s stems, except that the words in
 * `wordTerms` stand for themselves (see {@link LsaOptions.wordTerms}).
 */
export function lsaTerms(text: string, wordTerms: ReadonlySet<string>, restoreAccents?: AccentRestorer): string[] {
  if (wordTerms.size === 0) return analyze(text, restoreAccents);
  return lsaTokenTerms(analyzeTokens(text, restoreAccents), wordTerms);
}

/** {@link lsaTerms} of a text's tokens (`analyzeTokens`). */
export function lsaTokenTerms(tokens: readonly AnalyzedToken[], wordTerms: ReadonlySet<string>): string[] {
  return tokens.map((token) => (wordTerms.has(token.surface) ? token.surface : token.term));
}

/** A part of a document as model columns ({@link LsaModel.columnsOf}) and the weight of each occurrence. */
export interface WeightedColumns {
  columns: Int32Array;
  weight: number;
}

/** Term → real-valued count: a document for LSA (see {@link weightedBag}). */
export type TermBag = ReadonlyMap<string, number>;

/** Counts of each term (every occurrence weighs `weight`), added to `into` when given. */
export function termBag(terms: readonly string[], weight = 1, into: Map<string, number> = new Map()): Map<string, number> {
  for (const term of terms) into.set(term, (into.get(term) ?? 0) + weight);
  return into;
}

/** One bag from weighted parts: Σ weight × counts(part). Parts with weight ≤ 0 are left out. */
export function weightedBag(parts: readonly { terms: readonly string[]; weight: number }[]): Map<string, number> {
  const bag = new Map<string, number>();
  for (const part of parts) if (part.weight > 0) termBag(part.terms, part.weight, bag);
  return bag;
}

function resolveOptions(options: LsaOptions): ResolvedLsaOptions {
  const resolved: ResolvedLsaOptions = { ...LSA_DEFAULTS };
  for (const key of Object.keys(LSA_DEFAULTS) as (keyof ResolvedLsaOptions)[]) {
    const value = options[key];
    if (value !== undefined) (resolved as Record<string, unknown>)[key] = value;
  }
  if (!Number.isInteger(resolved.dimensions) || resolved.dimensions < 1) throw new RangeError("dimensions must be a positive integer");
  if (!(resolved.maxDocFreqRatio > 0 && resolved.maxDocFreqRatio <= 1)) throw new RangeError("maxDocFreqRatio must be in (0, 1]");
  if (!Number.isInteger(resolved.oversample) || resolved.oversample < 0) throw new RangeError("oversample must be ≥ 0");
  if (!Number.isInteger(resolved.powerIterations) || resolved.powerIterations < 0) throw new RangeError("powerIterations must be ≥ 0");
  resolved.seed = resolved.seed >>> 0;
  return resolved;
}

function lsaDigest(documents: readonly string[], options: ResolvedLsaOptions): string {
  const hash = createHash("sha256");
  hash.update(`${MODEL_VERSION}\n${ANALYZER_VERSION}\n${JSON.stringify(options)}\n${documents.length}\n`);
  for (const document of documents) {
    hash.update(`${Buffer.byteLength(document, "utf8")}:`);
    hash.update(document, "utf8");
  }
  return hash.digest("hex").slice(0, 16);
}

/** What the SVD is asked for: the weighted document×term matrix and what the model keeps of it. */
interface LsaProblem {
  matrix: CsrMatrix;
  terms: string[];
  idf: Float32Array;
  /** Singular directions asked of the SVD (the dimensions, plus the first one when it is dropped). */
  rank: number;
  skip: number;
  analyzeMs: number;
}

/** The document frequencies, the vocabulary that passes the filters, idf and the row-normalised matrix. */
function lsaProblem(docCounts: readonly TermBag[], options: ResolvedLsaOptions, started: number): LsaProblem {
  const n = docCounts.length;
  // Document frequencies (a term counts in a document when its weight there is positive).
  const df = new Map<string, number>();
  for (const counts of docCounts) {
    for (const [term, count] of counts) if (count > 0) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const maxDf = Math.floor(options.maxDocFreqRatio * n);
  const terms = [...df.entries()]
    .filter(([, count]) => count >= options.minDocFreq && count <= maxDf)
    .map(([term]) => term)
    .sort();
  const vocabulary = new Map(terms.map((term, column) => [term, column]));
  const m = terms.length;
  if (m === 0) {
    throw new RangeError(
      `trainLsa: no term passes the document-frequency filters (${n} documents, ` +
        `minDocFreq ${options.minDocFreq}, maxDocFreqRatio ${options.maxDocFreqRatio})`,
    );
  }
  const idf = Float32Array.from(terms, (term) => Math.log(n / (df.get(term) as number)));
  const analyzeMs = performance.now() - started;

  // The sparse document×term matrix, rows L2-normalised (columns ascending in each row).
  let capacity = 0;
  for (const counts of docCounts) capacity += counts.size;
  const indptr = new Int32Array(n + 1);
  const indices = new Int32Array(capacity);
  const values = new Float64Array(capacity);
  const tfOf = new Float64Array(m);
  let nnz = 0;
  docCounts.forEach((counts, row) => {
    const start = nnz;
    for (const [term, tf] of counts) {
      const column = vocabulary.get(term);
      if (column === undefined || !(tf > 0)) continue;
      tfOf[column] = tf;
      indices[nnz++] = column;
    }
    const columns = indices.subarray(start, nnz).sort();
    let norm = 0;
    for (let p = 0; p < columns.length; p++) {
      const column = columns[p] as number;
      const weight = Math.log1p(tfOf[column] as number) * (idf[column] as number);
      values[start + p] = weight;
      norm += weight * weight;
    }
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let p = start; p < nnz; p++) values[p] = (values[p] as number) * inv;
    indptr[row + 1] = nnz;
  });
  const matrix: CsrMatrix = { rows: n, cols: m, indptr, indices: indices.slice(0, nnz), values: values.slice(0, nnz) };
  const skip = options.dropFirstComponent ? 1 : 0;
  const requested = Math.max(0, Math.min(options.dimensions, m, n - skip));
  return { matrix, terms, idf, rank: requested + skip, skip, analyzeMs };
}

function svdOptions(options: ResolvedLsaOptions): RandomizedSvdOptions {
  return { oversample: options.oversample, powerIterations: options.powerIterations, seed: options.seed };
}

function trainFromBags(
  docCounts: readonly TermBag[],
  options: ResolvedLsaOptions,
  digest: string,
  started: number,
  onStats?: (stats: LsaTrainingStats) => void,
): LsaModel {
  const problem = lsaProblem(docCounts, options, started);
  const svdStarted = performance.now();
  const svd = randomizedSvd(problem.matrix, problem.rank, svdOptions(options));
  return modelFromSvd(problem, svd, options, digest, { started, svdMs: performance.now() - svdStarted }, onStats);
}

/** The model from the SVD of its problem: the scaled, normalised projection rows. */
function modelFromSvd(
  problem: LsaProblem,
  svd: TruncatedSvd,
  options: ResolvedLsaOptions,
  digest: string,
  timing: { started: number; svdMs: number },
  onStats?: (stats: LsaTrainingStats) => void,
): LsaModel {
  const { skip, terms, idf, matrix } = problem;
  const m = terms.length;
  const k = Math.max(0, svd.rank - skip);
  const singularValues = new Float32Array(k);
  const scale = new Float64Array(k);
  const largest = svd.singularValues[0] ?? 0;
  for (let c = 0; c < k; c++) {
    const sigma = svd.singularValues[c + skip] as number;
    singularValues[c] = sigma;
    // Components with a (numerically) zero singular value carry no information: zero them.
    scale[c] = sigma > 1e-9 * largest ? sigma ** (options.sigmaExponent - 1) : 0;
  }
  const projection = new Float32Array(m * k);
  for (let t = 0; t < m; t++) {
    const row = projection.subarray(t * k, (t + 1) * k);
    for (let c = 0; c < k; c++) row[c] = (svd.rightVectors[t * svd.rank + c + skip] as number) * (scale[c] as number);
    if (options.termNormExponent === 0) continue;
    let norm = 0;
    for (const value of row) norm += value ** 2;
    if (norm === 0) continue;
    const factor = Math.sqrt(norm) ** -options.termNormExponent;
    for (let c = 0; c < k; c++) row[c] = (row[c] as number) * factor;
  }
  const model = new LsaModel({
    id: `lsa:${MODEL_VERSION}:d${k}:${digest}`,
    options,
    analyzerVersion: ANALYZER_VERSION,
    documentCount: matrix.rows,
    terms,
    idf,
    singularValues,
    projection,
    dimensions: k,
  });
  onStats?.({
    documents: matrix.rows,
    vocabulary: m,
    nonZeros: matrix.indices.length,
    analyzeMs: problem.analyzeMs,
    svdMs: timing.svdMs,
    totalMs: performance.now() - timing.started,
  });
  return model;
}

/** Options of the {@link createLsaEmbedder} adapter. */
export interface LsaEmbedderOptions {
  /** Passed to `analyze` for every text (see {@link LsaModel.embedText}). */
  restoreAccents?: AccentRestorer;
}

/**
 * The {@link Embedder} adapter: each text is folded in by {@link LsaModel.embedText}; queries
 * and documents are treated alike. Vectors are unit length, or all-zero for a text with no
 * known term ("no dense signal").
 */
export function createLsaEmbedder(model: LsaModel, options: LsaEmbedderOptions = {}): Embedder {
  return {
    id: model.id,
    dimensions: model.dimensions,
    embed(texts: readonly string[], _kind: EmbedKind): Promise<Float32Array[]> {
      return Promise.resolve(texts.map((text) => model.embedText(text, options.restoreAccents)));
    },
  };
}
