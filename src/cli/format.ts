import type { SnapshotUse } from "../app/retrieval/load-engine.js";
import type { FigureChange } from "../core/retrieval/quality.js";
import type { CollectionReloadSummary } from "../app/index/collection-indexer.js";
import type { CollectionReloadError } from "../app/collection-service.js";
import type { DocumentSearchResponse } from "../core/retrieval/document-search.js";
import type { ScopeDecision } from "../core/retrieval/scope/gate.js";
import type { SearchResponse } from "../core/retrieval/engine.js";
import type { EvalReport } from "../core/retrieval/eval.js";
import { smallTalkOf } from "../core/reading/small-talk.js";
import { careNotice, crisisOf } from "../core/reading/crisis.js";
import { printable } from "../core/printable.js";

/*
 * Everything printed here that comes from data (references, document titles and file names,
 * collection and discipline names, notices and error messages that quote them, eval files'
 * ids and questions) goes through `printable`: a control or bidirectional character in it is
 * shown escaped, never acted on by the terminal.
 */

/**
 * A person at risk (core/reading/crisis.ts) sees, on stderr and before any result, the notice
 * the chat would show first, with the numbers to call (stdout stays the results, JSON or text).
 */
export function printCareNotice(question: string): void {
  const crisis = crisisOf(question);
  if (!crisis) return;
  const notice = careNotice(crisis.kind);
  console.error(`${notice.title}. ${notice.text}`);
  for (const contact of notice.contacts) console.error(`  ligue ${contact.phone}: ${contact.name} (${contact.detail}${contact.url ? `, ${contact.url}` : ""})`);
}

export function printSearchResults(response: SearchResponse, question: string): void {
  for (const notice of response.notices) console.error(`aviso: ${printable(notice)}`);
  for (const lookup of response.references) if (!lookup.ok) console.error(`referência inexistente: ${printable(String(lookup.message))}`);
  warnChatWouldNotSearch(question, response.scope, "a Bíblia", "versículos");
  printHits(
    response.results.map((result, index) => ({ ...result, heading: `${index + 1}. ${result.reference}` })),
    "Nenhum versículo encontrado.",
  );
}

/** Each hit as its heading, how it was found and its matched terms, then its text; `none` when there is no hit. */
function printHits(hits: readonly { heading: string; via: string[]; matchedTerms: string[]; text: string }[], none: string): void {
  if (hits.length === 0) console.log(none);
  for (const hit of hits) {
    const terms = hit.matchedTerms.length > 0 ? ` [${printable(hit.matchedTerms.join(", "))}]` : "";
    console.log(`${printable(hit.heading)} (${hit.via.join("+")})${terms}`);
    console.log(`   ${printable(hit.text)}`);
  }
}

/** What the chat would do instead of answering from these results (small talk's reply, the gate's refusal), or say before it (the gate's doubt), said on stderr. */
function warnChatWouldNotSearch(question: string, scope: ScopeDecision | undefined, corpus: string, units: string): void {
  if (smallTalkOf(question)) {
    console.error(`aviso: a mensagem é só um cumprimento, agradecimento ou despedida; o chat responderia com uma saudação, sem buscar ${units}`);
    return;
  }
  if (scope?.doubtful) {
    console.error(
      `aviso: a busca não tem certeza de que ${corpus} trate desta pergunta (probabilidade de estar fora do tema ${scope.outOfScopeProbability.toFixed(2)}); o chat diria essa dúvida antes da resposta`,
    );
    return;
  }
  if (!scope || scope.inScope) return;
  const foreign = scope.reasons.foreign;
  console.error(
    `aviso: pergunta fora do tema (confiança ${scope.confidence.toFixed(2)}${foreign.length > 0 ? `; palavras que ${corpus} não usa: ${printable(foreign.join(", "))}` : ""}); o chat responderia com a recusa, sem ${units}`,
  );
}

export function printEvalTable(report: EvalReport): void {
  const k = report.k;
  const keys = [`hit@${k}`, `recall@${k}`, `mrr@${k}`, `ndcg@${k}`];
  const rows: [string, Record<string, number>][] = [["geral", report.overall], ...Object.entries(report.byType)];
  console.log(`modo: ${report.mode} · ${report.queries} perguntas`);
  console.log(["tipo".padEnd(12), "n".padStart(3), ...keys.map((key) => key.padStart(10))].join(" "));
  for (const [name, metrics] of rows) {
    console.log([printable(name).padEnd(12), String(metrics.n).padStart(3), ...keys.map((key) => (metrics[key] ?? 0).toFixed(3).padStart(10))].join(" "));
  }
  console.log(`fora do tema: ${report.offtopic.n} (sem resultados: ${report.offtopic.empty})`);
  const refusals = report.refusals;
  if (refusals) {
    console.log(`recusadas como fora do tema: ${refusals.offtopic.refused} de ${refusals.offtopic.n} perguntas fora do tema`);
    const wrong = Object.entries(refusals.wronglyRefused).map(([type, tally]) => `${printable(type)} ${tally.refused}/${tally.n}`);
    console.log(`recusadas por engano: ${wrong.length > 0 ? wrong.join(", ") : "nenhuma pergunta de outro tipo"}`);
    for (const query of refusals.refusedQueries) console.log(printable(`  recusada por engano: ${query.id} (${query.type}) ${query.query}`));
  }
}

/** `pastor eval --compare`: hit@k/nDCG@k per type, hybrid and dense-only, one column pair per dense side. */
export function printCompareTable(compared: readonly { model: string; embedder: string | null; hybrid: EvalReport; dense: EvalReport }[]): void {
  const first = compared[0];
  if (!first) return;
  const k = first.hybrid.k;
  const cell = (metrics: Record<string, number> | undefined) => (metrics ? `${(metrics[`hit@${k}`] ?? 0).toFixed(3)}/${(metrics[`ndcg@${k}`] ?? 0).toFixed(3)}` : "-");
  const width = 15;
  console.log(`comparação · ${first.hybrid.queries} perguntas · células: hit@${k}/nDCG@${k} (${first.hybrid.mode} e só denso)`);
  compared.forEach((side, i) => console.log(printable(`  [${i + 1}] ${side.model} → ${side.embedder ?? "sem lado denso"}`)));
  const types = ["geral", ...new Set(compared.flatMap((side) => Object.keys(side.hybrid.byType)))];
  console.log(["tipo".padEnd(12), "n".padStart(3), ...compared.flatMap((_, i) => [`[${i + 1}] ${first.hybrid.mode}`.padStart(width), `[${i + 1}] denso`.padStart(width)])].join(" "));
  for (const type of types) {
    const pick = (report: EvalReport) => (type === "geral" ? report.overall : report.byType[type]);
    const n = pick(first.hybrid)?.n ?? 0;
    console.log([printable(type).padEnd(12), String(n).padStart(3), ...compared.flatMap((side) => [cell(pick(side.hybrid)).padStart(width), cell(pick(side.dense)).padStart(width)])].join(" "));
  }
}

export function printDocumentResults(response: DocumentSearchResponse, question: string): void {
  for (const notice of response.notices) console.error(`aviso: ${printable(notice)}`);
  warnChatWouldNotSearch(question, response.scope, `a coleção ${printable(response.collection)}`, "trechos");
  // One line of at most 240 characters: the lesson's line breaks become spaces.
  const excerpt = (body: string) => {
    const line = body.replace(/\s+/g, " ");
    return line.length > 240 ? `${line.slice(0, 240)}…` : line;
  };
  printHits(
    response.results.map((hit) => ({ ...hit, heading: `${hit.rank}. ${hit.citation}`, text: excerpt(hit.body) })),
    `Nenhum trecho encontrado na coleção ${printable(response.collection)}.`,
  );
}

/**
 * What a `pastor reload` could not do, one `erro:` line each on stderr: a collection whose
 * reload failed (or folders whose names clash), and each collection's documents left out of its
 * index (the warnings above say why). True when anything failed (the command exits 1).
 */
export function printReloadFailures(summaries: readonly CollectionReloadSummary[], failures: readonly CollectionReloadError[]): boolean {
  for (const failure of failures) {
    console.error(failure.code === "collection_name_clash" ? `erro: ${printable(failure.message)}` : `erro: coleção "${printable(failure.collection)}": ${printable(failure.message)}`);
  }
  for (const summary of summaries) {
    const left = summary.skippedDocuments;
    if (left.length === 0) continue;
    const count = left.length === 1 ? "1 documento não foi indexado" : `${left.length} documentos não foram indexados`;
    console.error(`erro: coleção "${printable(summary.collection)}": ${count} (veja os avisos): ${printable(left.join(", "))}`);
  }
  return failures.length > 0 || summaries.some((summary) => summary.skippedDocuments.length > 0);
}

export function printReloadSummary(summary: CollectionReloadSummary): void {
  console.log(
    `${printable(summary.collection)}: ${summary.documents} documentos, ${summary.chunks} trechos ` +
      `(novos ${summary.added}, alterados ${summary.changed}, sem mudanças ${summary.unchanged}, removidos ${summary.removed}, ignorados ${summary.skipped}); ` +
      `busca semântica: ${summary.dense === "off" ? `desligada${summary.denseOffReason ? ` (${printable(summary.denseOffReason)})` : ""}` : summary.dense}; ${summary.ms} ms`,
  );
}

/** `pastor eval --check`: each set's figures, then what moved beyond tolerance against the baseline. */
export function printQualityCheck(run: { figures: Record<string, Record<string, number>>; hash: string; ms: number }, changes: readonly FigureChange[]): void {
  const show = (value: number | undefined) => (value === undefined ? "-" : Number.isInteger(value) ? String(value) : value.toFixed(3));
  for (const [name, figures] of Object.entries(run.figures)) {
    console.log(`${name.padEnd(30)} ${Object.entries(figures).map(([figure, value]) => `${figure}=${show(value)}`).join(" ")}`);
  }
  console.log(`hash ${run.hash} · ${Object.keys(run.figures).length} conjuntos em ${(run.ms / 1000).toFixed(1)} s`);
  const label = { regression: "CAIU", improvement: "melhorou", missing: "faltando", new: "novo" } as const;
  for (const change of changes) console.log(`${label[change.verdict]}: ${change.set} ${change.figure} ${show(change.baseline)} → ${show(change.current)}`);
  const regressions = changes.filter((change) => change.verdict === "regression" || change.verdict === "missing").length;
  console.log(regressions === 0 ? "nenhum número caiu além da tolerância" : `${regressions} número(s) caíram além da tolerância`);
}

/**
 * Says on stderr when the engine was built from the index instead of read from its snapshot
 * (and why), so a slow start is never a mystery; silent when the snapshot was read.
 */
export function printSnapshotNotice(use: SnapshotUse): void {
  if (use.state === "loaded") return;
  const saved = use.saved ? "; um novo retrato foi salvo, as próximas buscas começam sem reconstruir" : "";
  console.error(`aviso: ${printable(use.reason)}: o motor de busca foi reconstruído a partir do índice em ${(use.ms / 1000).toFixed(1)} s${saved}.`);
}
