import type { CollectionReloadSummary } from "../app/collections/indexer.js";
import type { DocumentSearchResponse } from "../core/documents/search.js";
import type { SearchResponse } from "../core/search/engine.js";
import type { EvalReport } from "../core/search/eval.js";

export function printSearchResults(response: SearchResponse): void {
  for (const notice of response.notices) console.error(`aviso: ${notice}`);
  for (const lookup of response.references) if (!lookup.ok) console.error(`referência inexistente: ${lookup.message}`);
  if (response.scope && !response.scope.inScope) {
    const foreign = response.scope.reasons.foreign;
    console.error(
      `aviso: pergunta fora do tema (confiança ${response.scope.confidence.toFixed(2)}${foreign.length > 0 ? `; palavras que a Bíblia não usa: ${foreign.join(", ")}` : ""}); o chat responderia com a recusa, sem versículos`,
    );
  }
  if (response.results.length === 0) {
    console.log("Nenhum versículo encontrado.");
    return;
  }
  response.results.forEach((result, index) => {
    const terms = result.matchedTerms.length > 0 ? ` [${result.matchedTerms.join(", ")}]` : "";
    console.log(`${index + 1}. ${result.reference} (${result.via.join("+")})${terms}`);
    console.log(`   ${result.text}`);
  });
}

export function printEvalTable(report: EvalReport): void {
  const k = report.k;
  const keys = [`hit@${k}`, `recall@${k}`, `mrr@${k}`, `ndcg@${k}`];
  const rows: [string, Record<string, number>][] = [["geral", report.overall], ...Object.entries(report.byType)];
  console.log(`modo: ${report.mode} · ${report.queries} perguntas`);
  console.log(["tipo".padEnd(12), "n".padStart(3), ...keys.map((key) => key.padStart(10))].join(" "));
  for (const [name, metrics] of rows) {
    console.log([name.padEnd(12), String(metrics.n).padStart(3), ...keys.map((key) => (metrics[key] ?? 0).toFixed(3).padStart(10))].join(" "));
  }
  console.log(`fora do tema: ${report.offtopic.n} (sem resultados: ${report.offtopic.empty})`);
  const refusals = report.refusals;
  if (refusals) {
    console.log(`recusadas como fora do tema: ${refusals.offtopic.refused} de ${refusals.offtopic.n} perguntas fora do tema`);
    const wrong = Object.entries(refusals.wronglyRefused).map(([type, tally]) => `${type} ${tally.refused}/${tally.n}`);
    console.log(`recusadas por engano: ${wrong.length > 0 ? wrong.join(", ") : "nenhuma pergunta de outro tipo"}`);
    for (const query of refusals.refusedQueries) console.log(`  recusada por engano: ${query.id} (${query.type}) ${query.query}`);
  }
}

export function printDocumentResults(response: DocumentSearchResponse): void {
  for (const notice of response.notices) console.error(`aviso: ${notice}`);
  if (response.results.length === 0) {
    console.log(`Nenhum trecho encontrado na coleção ${response.collection}.`);
    return;
  }
  for (const hit of response.results) {
    const terms = hit.matchedTerms.length > 0 ? ` [${hit.matchedTerms.join(", ")}]` : "";
    console.log(`${hit.rank}. ${hit.citation} (${hit.via.join("+")})${terms}`);
    const excerpt = hit.body.length > 240 ? `${hit.body.slice(0, 240)}…` : hit.body;
    console.log(`   ${excerpt}`);
  }
}

export function printReloadSummary(summary: CollectionReloadSummary): void {
  console.log(
    `${summary.collection}: ${summary.documents} documentos, ${summary.chunks} trechos ` +
      `(novos ${summary.added}, alterados ${summary.changed}, sem mudanças ${summary.unchanged}, removidos ${summary.removed}, ignorados ${summary.skipped}); ` +
      `busca semântica: ${summary.dense === "off" ? `desligada${summary.denseOffReason ? ` (${summary.denseOffReason})` : ""}` : summary.dense}; ${summary.ms} ms`,
  );
}
