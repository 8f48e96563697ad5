import { parseVerseId } from "../bible/books.js";
import { parseJsonLines } from "../sources/jsonl.js";
import { averageMetrics, scoreRanking, type AggregateMetrics, type QueryMetrics } from "./metrics.js";

/** One line of an evaluation file (format of eval/README.md). */
export interface EvalQuery {
  id: string;
  type: string;
  query: string;
  relevant: string[];
  /** The asker's question before this one, for a follow-up ("pode explicar melhor?"). */
  previous?: string;
}

export class EvalFileError extends Error {
  readonly code = "eval_file_invalid";
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
    this.name = "EvalFileError";
  }
}

export function parseEvalFile(text: string, file: string): EvalQuery[] {
  const queries: EvalQuery[] = [];
  for (const { line, value } of parseJsonLines(text, (at) => new EvalFileError(file, at, "linha não é JSON válido"))) {
    const entry = value as Partial<EvalQuery>;
    if (typeof entry.query !== "string" || typeof entry.type !== "string" || !Array.isArray(entry.relevant)) {
      throw new EvalFileError(file, line, 'esperados os campos "query" (texto), "type" (texto) e "relevant" (lista)');
    }
    const relevant = entry.relevant.map(String);
    // A misspelt verse id (eval/README.md writes them `BOOK C:V`) would never match a result:
    // the query would score 0 silently.
    const wrong = relevant.find((id) => !parseVerseId(id));
    if (wrong !== undefined) throw new EvalFileError(file, line, `versículo relevante inválido: "${wrong}" (esperado LIVRO C:V, com o código de três letras do USFX, como "JHN 3:16")`);
    if (entry.previous !== undefined && typeof entry.previous !== "string") throw new EvalFileError(file, line, 'o campo "previous" deve ser um texto');
    queries.push({
      id: String(entry.id ?? `q${line}`),
      type: entry.type,
      query: entry.query,
      relevant,
      ...(entry.previous === undefined ? {} : { previous: entry.previous }),
    });
  }
  return queries;
}

export interface EvalReport {
  queries: number;
  mode: string;
  k: number;
  overall: MetricsJson;
  byType: Record<string, MetricsJson>;
  offtopic: { n: number; empty: number };
  /**
   * The out-of-scope gate, when its decisions were given: off-topic questions refused, and for
   * every other type how many were refused wrongly.
   */
  refusals?: { offtopic: { n: number; refused: number }; wronglyRefused: Record<string, { n: number; refused: number }>; refusedQueries: { id: string; type: string; query: string }[] };
  perQuery: { id: string; type: string; query: string; ndcg: number; hit: number; top: string[] }[];
}

export type MetricsJson = { n: number } & Record<string, number>;

/** Scores ranked verse ids (`BOOK C:V`) against the judgements; off-topic queries apart. */
export function evaluateRankings(
  queries: readonly EvalQuery[],
  rankings: readonly (readonly string[])[],
  k: number,
  mode: string,
  /** Per query: whether the out-of-scope gate refused it (omit when there is no gate). */
  refused?: readonly boolean[],
): EvalReport {
  const scored: { query: EvalQuery; metrics: QueryMetrics; ranked: readonly string[] }[] = [];
  let offtopic = 0;
  let offtopicEmpty = 0;
  queries.forEach((query, i) => {
    const ranked = rankings[i] ?? [];
    if (query.type === "offtopic" || query.relevant.length === 0) {
      offtopic++;
      if (ranked.length === 0) offtopicEmpty++;
      return;
    }
    scored.push({ query, metrics: scoreRanking(ranked, new Set(query.relevant), k), ranked });
  });
  const byType: Record<string, MetricsJson> = {};
  for (const type of [...new Set(scored.map((s) => s.query.type))].sort()) {
    byType[type] = toJson(averageMetrics(scored.filter((s) => s.query.type === type).map((s) => s.metrics)), k);
  }
  return {
    queries: queries.length,
    mode,
    k,
    overall: toJson(averageMetrics(scored.map((s) => s.metrics)), k),
    byType,
    offtopic: { n: offtopic, empty: offtopicEmpty },
    perQuery: scored.map((s) => ({
      id: s.query.id,
      type: s.query.type,
      query: s.query.query,
      ndcg: round(s.metrics.ndcg),
      hit: s.metrics.hit,
      top: s.ranked.slice(0, 3) as string[],
    })),
    ...(refused ? { refusals: tallyRefusals(queries, refused) } : {}),
  };
}

function tallyRefusals(queries: readonly EvalQuery[], refused: readonly boolean[]): NonNullable<EvalReport["refusals"]> {
  const offtopic = { n: 0, refused: 0 };
  const wronglyRefused: Record<string, { n: number; refused: number }> = {};
  const refusedQueries: { id: string; type: string; query: string }[] = [];
  queries.forEach((query, i) => {
    const isOfftopic = query.type === "offtopic" || query.relevant.length === 0;
    const tally = isOfftopic ? offtopic : (wronglyRefused[query.type] ??= { n: 0, refused: 0 });
    tally.n++;
    if (refused[i]) {
      tally.refused++;
      if (!isOfftopic) refusedQueries.push({ id: query.id, type: query.type, query: query.query });
    }
  });
  return { offtopic, wronglyRefused: Object.fromEntries(Object.entries(wronglyRefused).sort(([a], [b]) => a.localeCompare(b))), refusedQueries };
}

function toJson(metrics: AggregateMetrics, k: number): MetricsJson {
  return {
    n: metrics.n,
    [`hit@${k}`]: round(metrics.hit),
    [`recall@${k}`]: round(metrics.recall),
    [`mrr@${k}`]: round(metrics.mrr),
    [`ndcg@${k}`]: round(metrics.ndcg),
  };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
