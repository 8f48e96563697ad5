import { Command, InvalidArgumentError } from "commander";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { indexCorpus } from "../app/indexer.js";
import { parseDenseChoice } from "../app/dense.js";
import { loadEngine } from "../app/load-engine.js";
import { loadSettings, openStore } from "../app/runtime.js";
import { loadRetrievalAids } from "../app/retrieval-aids.js";
import { SettingsError, type Settings } from "../config/settings.js";
import { parseReference } from "../core/bible/references.js";
import { evaluateRankings, parseEvalFile, EvalFileError } from "../core/search/eval.js";
import type { SearchMode, SearchResponse } from "../core/search/engine.js";
import { createProgressReporter } from "./progress.js";
import { printDocumentResults, printEvalTable, printReloadSummary, printSearchResults } from "./format.js";
import { CollectionNotFoundError, CollectionService } from "../app/collections/service.js";
import type { DocumentSearchResponse } from "../core/documents/search.js";

const program = new Command();
program.name("pastor").description("Pastor Online: busca e respostas bíblicas fundamentadas.").showHelpAfterError();

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("deve ser um inteiro positivo");
  return n;
}

function searchMode(value: string): SearchMode {
  if (value !== "hybrid" && value !== "lexical" && value !== "dense") throw new InvalidArgumentError("use hybrid, lexical ou dense");
  return value;
}

program
  .command("serve")
  .description("inicia o servidor (API e aplicativo web) na porta PORT; indexa em segundo plano se AUTO_INDEX")
  .action(async () => {
    const settings = loadSettings();
    const { startServer } = await import("../server/main.js");
    const server = await startServer(settings);
    console.error(`Pastor Online em http://localhost:${server.port}`);
    const stop = () => void server.close().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });

program
  .command("index")
  .description("indexa os arquivos USFX de CORPUS_DIR (incremental: só refaz o que mudou)")
  .option("--json", "imprime um resumo em JSON")
  .action(async (options: { json?: boolean }) => {
    const settings = loadSettings();
    const store = await openStore(settings);
    const progress = createProgressReporter();
    try {
      const summary = await indexCorpus({
        store,
        corpusDir: path.resolve(settings.CORPUS_DIR),
        contextWindow: settings.CONTEXT_WINDOW,
        batchSize: settings.INDEX_BATCH_SIZE,
        dense: parseDenseChoice(settings.EMBEDDING_MODEL),
        lockTtlMs: settings.INDEX_LOCK_TTL_MS,
        onProgress: (p) => {
          progress.update(p);
          if (process.env.PASTOR_PROGRESS_LINES === "1" && p.phase === "lexical") console.log(`progress ${p.done}/${p.total}`);
        },
      });
      progress.stop();
      if (options.json) {
        console.log(JSON.stringify(summary, null, 2));
      } else {
        for (const source of summary.sources) console.log(`${source.file}: ${source.verses} versículos (${actionLabel(source.action)})`);
        for (const removed of summary.removedSources) console.log(`${removed}: removido do índice`);
        for (const error of summary.errors) console.error(`erro: ${error.message}`);
        console.log(
          `${summary.versesTotal} versículos no índice; ${summary.versesIndexed} gravados agora; ${summary.vectorsComputed} vetores calculados; modelo denso: ${summary.embedder ?? "desligado"}; ${summary.ms} ms`,
        );
      }
      if (summary.errors.length > 0) process.exitCode = 1;
    } finally {
      progress.stop();
      await store.close();
    }
  });

function actionLabel(action: string): string {
  return { unchanged: "sem mudanças", indexed: "indexado", resumed: "retomado", failed: "falhou" }[action] ?? action;
}

async function withEngine<T>(
  settings: Settings,
  work: (engine: Awaited<ReturnType<typeof loadEngine>>["engine"]) => Promise<T>,
  options: { retrievalAids?: boolean } = {},
): Promise<T> {
  const store = await openStore(settings);
  try {
    if ((await store.verseCount()) === 0) {
      throw new CliError("o índice está vazio: rode `pastor index` primeiro");
    }
    const aids = options.retrievalAids === false ? {} : await loadRetrievalAids();
    const { engine } = await loadEngine(store, settings, aids);
    return await work(engine);
  } finally {
    await store.close();
  }
}

program
  .command("search")
  .description("busca versículos (ou trechos de uma coleção de documentos) para uma pergunta ou referência")
  .argument("<query>", "pergunta, palavras ou referência (ex.: \"Jo 3:16\")")
  .option("--k <n>", "quantos resultados", positiveInt)
  .option("--mode <mode>", "hybrid | lexical | dense", searchMode, "hybrid")
  .option("--collection <name>", "busca numa coleção de documentos em vez da Bíblia")
  .option("--discipline <name>", "com --collection: só nesta disciplina")
  .option("--json", "saída em JSON")
  .action(async (query: string, options: { k?: number; mode: SearchMode; collection?: string; discipline?: string; json?: boolean }) => {
    const settings = loadSettings();
    const k = options.k ?? settings.TOP_K;
    if (options.collection !== undefined) {
      const response = await withCollections(settings, async (collections) => {
        const loaded = collections.get(options.collection!);
        if (!loaded || loaded.chunks === 0) {
          throw new CliError(`a coleção "${options.collection}" está vazia: rode \`pastor reload --collection ${options.collection}\` primeiro`);
        }
        return loaded.search.search(query, { k, mode: options.mode, ...(options.discipline ? { discipline: options.discipline } : {}) });
      });
      if (options.json) console.log(JSON.stringify(toDocumentSearchJson(response), null, 2));
      else printDocumentResults(response);
      return;
    }
    if (options.discipline !== undefined) throw new CliError("--discipline só vale com --collection");
    const response = await withEngine(settings, (engine) => engine.search(query, { k, mode: options.mode }));
    if (options.json) console.log(JSON.stringify(toSearchJson(response), null, 2));
    else printSearchResults(response);
  });

program
  .command("reload")
  .description("relê as fontes das coleções de documentos (pastas em COLLECTIONS_DIR, tabela MySQL) e atualiza o índice")
  .option("--collection <name>", "só esta coleção")
  .option("--json", "imprime o resumo em JSON")
  .action(async (options: { collection?: string; json?: boolean }) => {
    const settings = loadSettings();
    const summaries = await withCollections(settings, (collections) => collections.reload(options.collection));
    if (options.json) console.log(JSON.stringify(summaries, null, 2));
    else if (summaries.length === 0) console.log(`Nenhuma coleção encontrada em ${settings.COLLECTIONS_DIR} (nem MYSQL_URL definida).`);
    else summaries.forEach(printReloadSummary);
  });

async function withCollections<T>(settings: Settings, work: (collections: CollectionService) => Promise<T>): Promise<T> {
  const collections = new CollectionService(settings, {
    info: () => undefined,
    warn: (event, fields) => console.error(`aviso: ${String(fields?.message ?? event)}`),
    error: (event, fields) => console.error(`erro: ${String(fields?.message ?? event)}`),
  });
  try {
    await collections.open();
    return await work(collections);
  } finally {
    await collections.close();
  }
}

function toDocumentSearchJson(response: DocumentSearchResponse) {
  return {
    query: response.query,
    mode: response.mode,
    collection: response.collection,
    notices: response.notices,
    results: response.results.map((hit) => ({
      source: hit.sourceId,
      chunk: hit.chunk,
      ...(hit.page !== undefined ? { page: hit.page } : {}),
      ...(hit.pageEnd !== undefined ? { pageEnd: hit.pageEnd } : {}),
      title: hit.title,
      discipline: hit.discipline,
      citation: hit.citation,
      text: hit.body,
      via: hit.via,
      matchedTerms: hit.matchedTerms,
      rank: hit.rank,
      score: hit.score,
      ...(hit.lexicalScore !== undefined ? { lexicalScore: hit.lexicalScore } : {}),
      ...(hit.similarity !== undefined ? { similarity: hit.similarity } : {}),
    })),
  };
}

function toSearchJson(response: SearchResponse) {
  return {
    query: response.query,
    mode: response.mode,
    notices: response.notices,
    references: response.references,
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
      ...(r.lexicalScore !== undefined ? { lexicalScore: r.lexicalScore } : {}),
      ...(r.similarity !== undefined ? { similarity: r.similarity } : {}),
    })),
  };
}

program
  .command("eval")
  .description("mede a qualidade da busca sobre um arquivo de perguntas (JSONL)")
  .requiredOption("--queries <file>", "arquivo JSONL no formato de eval/README.md")
  .option("--k <n>", "profundidade das métricas", positiveInt, 10)
  .option("--mode <mode>", "hybrid | lexical | dense", searchMode, "hybrid")
  .option("--json", "saída em JSON")
  .option("--per-query", "inclui cada pergunta no JSON")
  .action(async (options: { queries: string; k: number; mode: SearchMode; json?: boolean; perQuery?: boolean }) => {
    const settings = loadSettings();
    const text = await readFile(options.queries, "utf8").catch(() => {
      throw new CliError(`não foi possível ler ${options.queries}`);
    });
    const queries = parseEvalFile(text, options.queries);
    const report = await withEngine(settings, async (engine) => {
      const rankings: string[][] = [];
      const refused: boolean[] = [];
      for (const query of queries) {
        const response = await engine.search(query.query, { k: options.k, mode: options.mode });
        rankings.push(response.results.map((r) => `${r.book} ${r.chapter}:${r.verse}`));
        refused.push(response.scope?.inScope === false);
      }
      return evaluateRankings(queries, rankings, options.k, options.mode, refused);
    });
    if (options.json) {
      const { perQuery, ...rest } = report;
      console.log(JSON.stringify(options.perQuery ? report : rest, null, 2));
      void perQuery;
    } else {
      printEvalTable(report);
    }
  });

program
  .command("verses")
  .description("imprime os versículos de uma referência (ex.: \"Jo 3:16-18\")")
  .argument("<reference>")
  .option("--json", "saída em JSON")
  .action(async (reference: string, options: { json?: boolean }) => {
    const settings = loadSettings();
    const parsed = parseReference(reference);
    if (!parsed.ok) throw new CliError(parsed.message);
    const response = await withEngine(settings, (engine) => engine.search(reference, { k: 10_000, mode: "lexical" }), {
      retrievalAids: false,
    });
    const failures = response.references.filter((r) => !r.ok);
    if (failures.length > 0) throw new CliError(failures.map((f) => f.message).join("; "));
    const verses = response.results.filter((r) => r.via.includes("reference"));
    if (options.json) {
      console.log(JSON.stringify(verses.map((v) => ({ ref: v.ref, reference: v.reference, text: v.text })), null, 2));
      return;
    }
    for (const verse of verses) console.log(`${verse.reference}  ${verse.text}`);
  });

class CliError extends Error {}

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof SettingsError || error instanceof CliError || error instanceof EvalFileError || error instanceof CollectionNotFoundError) {
    console.error(`pastor: ${error.message}`);
  } else if (error instanceof Error) {
    console.error(`pastor: ${error.message}`);
    if (process.env.DEBUG) console.error(error.stack);
  } else {
    console.error(`pastor: ${String(error)}`);
  }
  process.exitCode = 1;
});
