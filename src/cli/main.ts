import { Command, InvalidArgumentError } from "commander";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { loadEngine } from "../app/retrieval/load-engine.js";
import { loadSettings } from "../app/runtime.js";
import type { Baseline } from "../core/retrieval/quality.js";
import { findProjectRoot } from "../project-root.js";
import { loadRetrievalAids } from "../app/retrieval/retrieval-aids.js";
import { ENGINE_SNAPSHOT } from "../app/retrieval/engine-snapshot.js";
import { prefetchSnapshot } from "../app/retrieval/snapshot-prefetch.js";
import { SettingsError, type Settings } from "../config/settings.js";
import { parseReference } from "../core/bible/references.js";
import { evaluateRankings, parseEvalFile, type EvalReport } from "../core/retrieval/eval.js";
import { retrievalQuery } from "../core/reading/follow-up.js";
import type { SearchEngine, SearchMode, SearchResponse } from "../core/retrieval/engine.js";
import { printable, printableJson } from "../core/printable.js";
import { BIBLE_COLLECTION, isBibleCollection } from "../core/types.js";
import { printCareNotice, printSnapshotNotice, printCompareTable, printDocumentResults, printEvalTable, printQualityCheck, printReloadFailures, printReloadSummary, printSearchResults } from "./format.js";
import type { CollectionService } from "../app/collection-service.js";
import type { DocumentSearchResponse } from "../core/retrieval/document-search.js";
import { configurePortuguese, withExamples } from "./commander-pt.js";
import { EXIT_INPUT_FAILED, EXIT_USAGE, exitCodeFor, InputError, reportError, UsageError } from "./errors.js";
import { requireWritableDataDir } from "./folders.js";
import { ensureCollection, ensureIndex, printIndexErrors, runIndexing } from "./indexing.js";
import { openCliStore } from "./store.js";
import { lookupVerses, readPrimaryVerses } from "./verses.js";

const program = configurePortuguese(new Command());
program.name("pastor").usage("<comando> [opções]").description("Pastor Online: busca e respostas bíblicas fundamentadas.");
withExamples(program, ['pastor verses "Jo 3:16"', 'pastor search "o que Jesus disse sobre amar os inimigos?"', "pastor index"]).addHelpText(
  "after",
  "\nCódigos de saída: 0 tudo certo; 1 alguma entrada falhou (nomeada; o resto foi feito);\n2 erro de uso ou de configuração (nada foi feito).",
);

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("deve ser um inteiro positivo");
  return n;
}

function searchMode(value: string): SearchMode {
  if (value !== "hybrid" && value !== "lexical" && value !== "dense") throw new InvalidArgumentError("use hybrid, lexical ou dense");
  return value;
}

withExamples(
  program
    .command("serve")
    .usage("[--help]")
    .description("inicia o servidor (API e aplicativo web) na porta PORT; indexa em segundo plano se AUTO_INDEX"),
  ["PORT=8081 pastor serve"],
).action(async () => {
  const settings = loadSettings();
  requireWritableDataDir(settings.DATA_DIR);
  const { startServer } = await import("../http/main.js");
  const server = await startServer(settings).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new SettingsError("PORT", `= ${settings.PORT}: a porta já está em uso por outro programa; escolha outra, por exemplo PORT=8081 npm start`);
    }
    throw error;
  });
  console.error(`Pastor Online em http://localhost:${server.port}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
});

withExamples(
  program
    .command("index")
    .usage("[--json]")
    .description("indexa os arquivos USFX de CORPUS_DIR (incremental: só refaz o que mudou)")
    .option("--json", "imprime um resumo em JSON"),
  ["pastor index --json"],
).action(async (options: { json?: boolean }) => {
  const settings = loadSettings();
  const store = await openCliStore(settings);
  try {
    const summary = await runIndexing(settings, store);
    if (options.json) {
      console.log(printableJson(summary));
    } else {
      for (const source of summary.sources) console.log(`${printable(source.file)}: ${source.verses} versículos (${actionLabel(source.action)})`);
      for (const removed of summary.removedSources) console.log(`${printable(removed)}: removido do índice`);
      console.log(
        `${summary.versesTotal} versículos no índice; ${summary.versesIndexed} gravados agora; ${summary.vectorsComputed} vetores calculados; modelo denso: ${summary.embedder ?? "desligado"}; ${summary.ms} ms`,
      );
      if (summary.snapshotFailed) console.error(`aviso: o retrato do índice não pôde ser salvo (${printable(summary.snapshotFailed)}); a próxima busca reconstrói o motor a partir do índice`);
      if (summary.snapshot) console.log(`retrato do índice salvo (${byteSize(summary.snapshot.bytes)} em ${summary.snapshot.ms} ms): as buscas começam sem reconstruir o motor`);
    }
    printIndexErrors(summary);
    if (summary.errors.length > 0) process.exitCode = EXIT_INPUT_FAILED;
  } finally {
    await store.close();
  }
});

function actionLabel(action: string): string {
  return { unchanged: "sem mudanças", indexed: "indexado", resumed: "retomado", failed: "falhou" }[action] ?? action;
}

/** Runs `work` on the search engine, building the index first when it is empty (exit 1 if a corpus file failed). */
async function withEngine<T>(settings: Settings, work: (engine: Awaited<ReturnType<typeof loadEngine>>["engine"]) => Promise<T>): Promise<T> {
  const store = await openCliStore(settings);
  // The engine's snapshot is read on the second core while this thread checks the index and loads the aids.
  const prefetched = settings.SNAPSHOTS && settings.VECTOR_STORE === "sqlite" ? prefetchSnapshot(store.location, ENGINE_SNAPSHOT) : undefined;
  prefetched?.catch(() => undefined);
  try {
    const built = await ensureIndex(settings, store);
    if (built && built.errors.length > 0) process.exitCode = EXIT_INPUT_FAILED;
    const aids = await loadRetrievalAids(settings.SNAPSHOTS ? { store, snapshot: "save" } : {});
    // An index built just now has a snapshot the read ahead may have missed.
    const loaded = await loadEngine(store, settings, aids, { snapshot: settings.SNAPSHOTS ? "save" : "ignore", prefetched: built ? undefined : prefetched });
    printSnapshotNotice(loaded.snapshot);
    return await work(loaded.engine);
  } finally {
    await store.close();
  }
}

withExamples(
  program
    .command("search")
    .usage("<pergunta> [--k N] [--mode hybrid|lexical|dense] [--collection NOME [--discipline D]] [--json]")
    .description("busca versículos (ou trechos de uma coleção de documentos) para uma pergunta ou referência; indexa primeiro se o índice estiver vazio")
    .argument("<pergunta>", 'pergunta, palavras ou referência (ex.: "Jo 3:16")')
    .option("--k <n>", "quantos resultados (padrão: TOP_K)", positiveInt)
    .option("--mode <modo>", "hybrid | lexical | dense", searchMode, "hybrid")
    .option("--collection <nome>", `busca numa coleção de documentos em vez da Bíblia (${BIBLE_COLLECTION}, o padrão, é a Bíblia)`)
    .option("--discipline <nome>", "com --collection: só nesta disciplina")
    .option("--json", "saída em JSON")
    .option("--explain", "com --json: inclui `explain`, o que cada etapa da ordenação leu, acrescentou ou moveu, em ordem"),
  ['pastor search "estou com medo do futuro" --k 3', 'pastor search "quem foi Melquisedeque?" --json --explain'],
).action(async (query: string, options: { k?: number; mode: SearchMode; collection?: string; discipline?: string; json?: boolean; explain?: boolean }) => {
  if (query.trim() === "") throw new UsageError("a pergunta está vazia");
  if (options.explain && !options.json) throw new UsageError("--explain vale com --json");
  const explain = options.explain === true;
  // What the chat searches: the question without the greeting or thanks around it.
  const question = retrievalQuery(query, []);
  printCareNotice(question);
  const settings = loadSettings();
  const k = options.k ?? settings.TOP_K;
  if (options.collection !== undefined && !isBibleCollection(options.collection)) {
    const response = await withCollections(settings, async (collections) => {
      await ensureCollection(collections, options.collection!, settings);
      return collections.search(options.collection!, question, { k, mode: options.mode, explain, ...(options.discipline ? { discipline: options.discipline } : {}) });
    });
    if (options.json) console.log(printableJson(toDocumentSearchJson(response)));
    else printDocumentResults(response, query);
    return;
  }
  if (options.discipline !== undefined) throw new UsageError("--discipline só vale com --collection de uma coleção de documentos");
  const response = await withEngine(settings, (engine) => engine.search(question, { k, mode: options.mode, explain }));
  if (options.json) console.log(printableJson(toSearchJson(response)));
  else printSearchResults(response, query);
});

withExamples(
  program
    .command("reload")
    .usage("[--collection NOME] [--json]")
    .description("relê as fontes das coleções de documentos (pastas em COLLECTIONS_DIR, tabela MySQL) e atualiza o índice")
    .option("--collection <nome>", "só esta coleção")
    .option("--json", "imprime o resumo em JSON"),
  ["pastor reload --collection exemplo"],
).action(async (options: { collection?: string; json?: boolean }) => {
  if (options.collection !== undefined && isBibleCollection(options.collection)) {
    throw new UsageError("a Bíblia não é recarregada por `pastor reload`: use `pastor index`");
  }
  const settings = loadSettings();
  requireWritableDataDir(settings.DATA_DIR);
  const { createProgressReporter } = await import("./progress.js");
  const progress = createProgressReporter();
  const { summaries, failures } = await withCollections(settings, (collections) =>
    collections.reloadEach(options.collection, (collection, report) => progress.update({ ...report, source: collection })),
  ).finally(() => progress.stop());
  if (options.json) console.log(printableJson(summaries));
  else if (summaries.length === 0 && failures.length === 0) console.log(`Nenhuma coleção encontrada em ${printable(settings.COLLECTIONS_DIR)} (nem MYSQL_URL definida).`);
  else summaries.forEach(printReloadSummary);
  // Exit 1 when any input failed, each named: a collection (or clashing folders), or documents left out of an index.
  const failed = printReloadFailures(summaries, failures);
  // The one collection asked for could not be read because of its folder's name: the configuration's error, nothing done.
  if (options.collection !== undefined && failures.some((failure) => failure.code === "collection_name_clash")) process.exitCode = EXIT_USAGE;
  else if (failed) process.exitCode = EXIT_INPUT_FAILED;
});
async function withCollections<T>(settings: Settings, work: (collections: CollectionService) => Promise<T>): Promise<T> {
  const { CollectionService } = await import("../app/collection-service.js");
  const collections = new CollectionService(settings, {
    info: () => undefined,
    warn: (event, fields) => console.error(`aviso: ${printable(String(fields?.message ?? event))}`),
    error: (event, fields) => console.error(`erro: ${printable(String(fields?.message ?? event))}`),
  });
  try {
    await collections.open();
    return await work(collections);
  } finally {
    await collections.close();
  }
}

// Both printed with JSON.stringify, which leaves out the fields that are undefined (scope, page, scores).
function toDocumentSearchJson(response: DocumentSearchResponse) {
  return {
    query: response.query,
    mode: response.mode,
    collection: response.collection,
    notices: response.notices,
    scope: response.scope,
    explain: response.explain,
    results: response.results.map((hit) => ({
      source: hit.sourceId,
      chunk: hit.chunk,
      page: hit.page,
      pageEnd: hit.pageEnd,
      title: hit.title,
      discipline: hit.discipline,
      citation: hit.citation,
      text: hit.body,
      via: hit.via,
      matchedTerms: hit.matchedTerms,
      rank: hit.rank,
      score: hit.score,
      lexicalScore: hit.lexicalScore,
      similarity: hit.similarity,
    })),
  };
}

function toSearchJson(response: SearchResponse) {
  return {
    query: response.query,
    mode: response.mode,
    notices: response.notices,
    references: response.references,
    reading: response.reading,
    scope: response.scope,
    explain: response.explain,
    results: response.results.map((r) => ({
      ref: r.ref,
      reference: r.reference,
      book: r.book,
      chapter: r.chapter,
      verse: r.verse,
      ...(r.verseEnd !== r.verse ? { verseEnd: r.verseEnd } : {}),
      source: r.source,
      text: r.text,
      via: r.via,
      matchedTerms: r.matchedTerms,
      score: r.score,
      lexicalScore: r.lexicalScore,
      similarity: r.similarity,
    })),
  };
}

withExamples(
  program
    .command("eval")
    .usage("--queries ARQUIVO [--k N] [--mode hybrid|lexical|dense] [--compare lsa,MODELO] [--json [--per-query]] | --check [--sets A,B] [--update-baseline] [--results ARQUIVO]")
    .description("mede a qualidade da busca sobre um arquivo de perguntas (JSONL), ou confere todos os conjuntos de eval/registry.json contra eval/baseline.json (--check); indexa primeiro se o índice estiver vazio")
    .option("--queries <arquivo>", "arquivo JSONL no formato de eval/README.md")
    .option("--k <n>", "profundidade das métricas", positiveInt, 10)
    .option("--mode <modo>", "hybrid | lexical | dense", searchMode, "hybrid")
    .option(
      "--compare <modelos>",
      "compara lados densos nas mesmas perguntas, lado a lado (busca híbrida e só densa): lista separada por vírgulas de valores de EMBEDDING_MODEL (lsa, id de um modelo transformers.js ou pasta local); calcula os vetores que faltarem",
      commaList,
    )
    .option("--json", "saída em JSON")
    .option("--per-query", "inclui cada pergunta no JSON")
    .option("--check", "mede todos os conjuntos registrados em eval/registry.json e falha (saída 1) se algum número cair além da tolerância de eval/baseline.json")
    .option("--sets <nomes>", "com --check: só estes conjuntos (nomes sem .jsonl, separados por vírgulas)", commaList)
    .option("--update-baseline", "com --check: grava os números medidos em eval/baseline.json (diga no commit por que mudaram)")
    .option("--results <arquivo>", "com --check: escreve a página de resultados (ex.: docs/RESULTS.md)"),
  ["pastor eval --queries eval/dev.jsonl --k 5", "pastor eval --check", "pastor eval --check --update-baseline --results docs/RESULTS.md"],
).action(async (options: EvalOptions) => {
  const settings = loadSettings();
  if (options.check) return checkQuality(settings, options);
  if (!options.queries) throw new UsageError("informe --queries <arquivo>, ou --check para conferir todos os conjuntos registrados", "eval");
  const file = options.queries;
  const text = await readFile(file, "utf8").catch(() => {
    throw new InputError(`não foi possível ler ${file}`);
  });
  const queries = parseEvalFile(text, file);
  const evaluate = async (engine: SearchEngine, mode: SearchMode) => {
    const rankings: string[][] = [];
    const refused: boolean[] = [];
    for (const query of queries) {
      // A follow-up is searched as the chat searches it: with the question before it.
      const history = query.previous === undefined ? [] : [{ role: "user" as const, content: query.previous }];
      const response = await engine.search(retrievalQuery(query.query, history), { k: options.k, mode });
      rankings.push(response.results.map((r) => `${r.book} ${r.chapter}:${r.verse}`));
      refused.push(response.scope?.inScope === false);
    }
    return evaluateRankings(queries, rankings, options.k, mode, refused);
  };
  // Without --per-query, JSON.stringify leaves the undefined perQuery out.
  const strip = (report: EvalReport) => (options.perQuery ? report : { ...report, perQuery: undefined });
  if (options.compare) {
    const compared = await compareDenseSides(settings, options.compare, async (engine) => ({
      hybrid: await evaluate(engine, options.mode === "dense" ? "hybrid" : options.mode),
      dense: await evaluate(engine, "dense"),
    }));
    if (options.json) console.log(printableJson({ queries: queries.length, k: options.k, compare: compared.map((c) => ({ ...c, hybrid: strip(c.hybrid), dense: strip(c.dense) })) }));
    else printCompareTable(compared);
    return;
  }
  const report = await withEngine(settings, (engine) => evaluate(engine, options.mode));
  if (options.json) console.log(printableJson(strip(report)));
  else printEvalTable(report);
});

function commaList(value: string): string[] {
  const items = value.split(",").map((item) => item.trim()).filter((item) => item !== "");
  if (items.length === 0) throw new InvalidArgumentError("dê ao menos um modelo (ex.: lsa,Xenova/paraphrase-multilingual-MiniLM-L12-v2)");
  return [...new Set(items)];
}

/**
 * Runs `work` once per dense side (an EMBEDDING_MODEL value each) on the same index: vectors a
 * side lacks are computed first (incremental indexing keeps each model's vectors apart).
 */
async function compareDenseSides<T>(settings: Settings, models: readonly string[], work: (engine: SearchEngine) => Promise<T>): Promise<({ model: string; embedder: string | null } & T)[]> {
  const store = await openCliStore(settings);
  try {
    const aids = await loadRetrievalAids();
    const out: ({ model: string; embedder: string | null } & T)[] = [];
    for (const model of models) {
      const modelSettings: Settings = { ...settings, EMBEDDING_MODEL: model };
      const summary = await runIndexing(modelSettings, store);
      printIndexErrors(summary);
      if (summary.errors.length > 0) process.exitCode = EXIT_INPUT_FAILED;
      const { engine, embedder, denseOffReason } = await loadEngine(store, modelSettings, aids);
      if (!embedder) throw new InputError(`o lado denso '${model}' não pôde ser usado: ${denseOffReason ?? "sem vetores"}`);
      out.push({ model, embedder: embedder.id, ...(await work(engine)) });
    }
    return out;
  } finally {
    await store.close();
  }
}

withExamples(
  program
    .command("verses")
    .usage("<referência> [--json]")
    .description('imprime os versículos de uma referência (ex.: "Jo 3:16-18"); lê direto do corpus se o índice estiver vazio ou desatualizado')
    .argument("<referência>", '"Jo 3:16-18", "Salmo 23", "Rm 3:23; 6:23"')
    .option("--json", "saída em JSON"),
  ['pastor verses "Rm 3:23; 6:23"'],
).action(async (reference: string, options: { json?: boolean }) => {
  const settings = loadSettings();
  const parsed = parseReference(reference);
  if (!parsed.ok) throw new InputError(parsed.message);
  const read = await readPrimaryVerses(settings);
  const verses = lookupVerses(parsed.references, read.verses);
  if (options.json) console.log(printableJson(verses));
  else for (const verse of verses) console.log(`${verse.reference}  ${printable(verse.text)}`);
  // A changed corpus file could not be read: answered from the index's copy, and exit 1.
  if (read.failed) process.exitCode = EXIT_INPUT_FAILED;
});

program.parseAsync(process.argv).catch((error: unknown) => {
  reportError(error);
  process.exitCode = exitCodeFor(error);
});

interface EvalOptions {
  queries?: string;
  k: number;
  mode: SearchMode;
  compare?: string[];
  json?: boolean;
  perQuery?: boolean;
  check?: boolean;
  sets?: string[];
  updateBaseline?: boolean;
  results?: string;
}

/** `pastor eval --check`: every registered set against the baseline; exit 1 on a drop beyond tolerance. */
async function checkQuality(settings: Settings, options: EvalOptions): Promise<void> {
  const evalDir = path.join(findProjectRoot(), "eval");
  const baselineFile = path.join(evalDir, "baseline.json");
  const [{ readBaseline, readRegistry, runQualitySets, setName, writeBaseline }, { compareWithBaseline, DEFAULT_TOLERANCE, resultsPage }] = await Promise.all([
    import("../app/quality-check.js"),
    import("../core/retrieval/quality.js"),
  ]);
  const registry = await readRegistry(evalDir);
  const unknown = (options.sets ?? []).filter((name) => !registry.sets.some((set) => setName(set) === name));
  if (unknown.length > 0) throw new UsageError(`conjunto desconhecido em --sets: ${unknown.join(", ")} (veja eval/registry.json)`);
  const run = await withEngine(settings, (engine) =>
    runQualitySets(engine, registry, evalDir, { ...(options.sets ? { only: options.sets } : {}), onSet: (name) => process.stderr.write(`${name} `) }),
  );
  process.stderr.write("\n");
  const baseline: Baseline = await readBaseline(baselineFile).catch(() => ({ tolerance: DEFAULT_TOLERANCE, sets: {} }));
  const measured = options.sets ? Object.fromEntries(Object.entries(baseline.sets).filter(([name]) => options.sets!.includes(name))) : baseline.sets;
  const changes = compareWithBaseline({ ...baseline, sets: measured }, run.figures);
  if (options.json) console.log(JSON.stringify({ hash: run.hash, ms: run.ms, figures: run.figures, changes }, null, 2));
  else printQualityCheck(run, changes);
  if (options.updateBaseline) {
    await writeBaseline(baselineFile, { ...baseline, sets: { ...baseline.sets, ...run.figures } });
    console.error(`eval/baseline.json atualizado (${Object.keys(run.figures).length} conjuntos)`);
  } else if (changes.some((change) => change.verdict === "regression" || change.verdict === "missing")) {
    process.exitCode = EXIT_INPUT_FAILED;
  }
  if (options.results) {
    if (options.sets) throw new UsageError("--results precisa de todos os conjuntos (sem --sets)");
    await writeFile(options.results, `${resultsPage(registry, run.figures, run.hash)}\n`);
    console.error(`página de resultados escrita em ${options.results}`);
  }
}

/** A size as people read it: "12,3 MB", "48 KB". */
function byteSize(bytes: number): string {
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(1).replace(".", ",")} MB`;
  return `${Math.max(1, Math.round(bytes / 2 ** 10))} KB`;
}
