import type { CollectionStatus, IndexProgress, ServerStatus } from "./api";

/** Plain-Portuguese wording of the server's status (what the side panel shows). */

const numbers = new Intl.NumberFormat("pt-BR");

export function formatNumber(value: number): string {
  return numbers.format(value);
}

export const PHASE_LABELS: Readonly<Record<string, string>> = {
  scanning: "Lendo os arquivos da Bíblia",
  lexical: "Indexando as palavras dos versículos",
  training: "Aprendendo o vocabulário da Bíblia",
  dense: "Preparando a busca por significado",
  done: "Índice pronto",
};

export function phaseLabel(phase: string | undefined): string {
  return (phase && PHASE_LABELS[phase]) || "Preparando o índice";
}

const COUNT_UNITS: Readonly<Record<NonNullable<IndexProgress["counts"]>, string>> = {
  verses: "versículos",
  documents: "documentos",
  chunks: "trechos",
};

/** "12.288 de 31.102 versículos" (or documentos, trechos) while a phase counts; "" otherwise. */
export function progressCount(progress: IndexProgress | null | undefined): string {
  if (!progress || progress.total <= 1 || progress.phase === "training" || progress.phase === "scanning") return "";
  return `${formatNumber(Math.min(progress.done, progress.total))} de ${formatNumber(progress.total)} ${COUNT_UNITS[progress.counts ?? "verses"]}`;
}

const COLLECTION_PHASE_LABELS: Readonly<Record<string, string>> = {
  scanning: "lendo a fonte",
  lexical: "indexando os documentos",
  training: "aprendendo o vocabulário da coleção",
  dense: "preparando a busca por significado",
  done: "pronta",
};

/** "recarregando… indexando os documentos: 120 de 1.000 documentos" while a reload runs; "" otherwise. */
export function collectionReloadText(collection: CollectionStatus): string {
  if (!collection.reloading) return "";
  const progress = collection.progress;
  if (!progress) return "recarregando…";
  const count = progressCount(progress);
  return `recarregando… ${COLLECTION_PHASE_LABELS[progress.phase] ?? "preparando"}${count ? `: ${count}` : ""}`;
}

/** 0..1 for a progress bar, or undefined when the phase has no count. */
export function progressFraction(progress: ServerStatus["progress"]): number | undefined {
  if (!progress || progress.total <= 1 || progress.phase === "training" || progress.phase === "scanning") return undefined;
  return Math.max(0, Math.min(1, progress.done / progress.total));
}

export function indexSummary(status: ServerStatus): string {
  if (status.indexing) return phaseLabel(status.progress?.phase);
  if (status.versesIndexed > 0) return `Pronto: ${formatNumber(status.versesIndexed)} versículos indexados`;
  return "O índice ainda não foi criado";
}

/** Whether a question can be answered now (the lexical index is loaded). */
export function chatAvailability(status: ServerStatus): string {
  if (status.lexicalReady && status.indexing) return "Você já pode perguntar: a busca usa o que já foi indexado.";
  if (!status.lexicalReady && status.indexing) return "As perguntas funcionam assim que as palavras estiverem indexadas.";
  return "";
}

export function embeddingText(status: ServerStatus): { title: string; detail: string; model?: string } {
  const embedding = status.embedding;
  if (embedding?.enabled) {
    const model = embedding.model ?? "";
    if (model.startsWith("lsa")) {
      return { title: "Por palavras-chave e por significado", detail: "Modelo de significado aprendido da própria Bíblia (LSA).", model };
    }
    return { title: "Por palavras-chave e por significado", detail: `Modelo de significado: ${model}.`, model };
  }
  if (status.indexing) {
    return { title: "Busca só por palavras-chave, por enquanto", detail: "A busca por significado fica pronta ao fim da indexação." };
  }
  const reason = embedding?.reason ? capitalize(embedding.reason.replace(/\.$/u, "")) + "." : "";
  return { title: "Busca só por palavras-chave", detail: reason };
}

const PROVIDERS: Readonly<Record<string, string>> = {
  stub: "Modo extrativo (sem modelo de linguagem)",
  openai: "OpenAI",
  groq: "Groq",
  anthropic: "Anthropic",
  ollama: "Ollama (no próprio servidor)",
};

export function llmText(status: ServerStatus): { title: string; detail: string } {
  const provider = status.llm?.provider ?? "";
  const title = PROVIDERS[provider] ?? provider;
  if (provider === "stub") return { title, detail: "As respostas citam diretamente os versículos encontrados." };
  return { title, detail: status.llm?.model ? `Modelo: ${status.llm.model}` : "" };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "4 documentos · 12 trechos" (or "Vazia: nenhum documento indexado"). */
export function collectionCounts(collection: CollectionStatus): string {
  if (collection.chunks === 0 && collection.documents === 0) return "Vazia: nenhum documento indexado";
  const documents = collection.documents === 1 ? "1 documento" : `${formatNumber(collection.documents)} documentos`;
  const chunks = collection.chunks === 1 ? "1 trecho" : `${formatNumber(collection.chunks)} trechos`;
  return `${documents} · ${chunks}`;
}

/** "Busca semântica: ativa", or "Busca semântica: desligada (reason)". */
export function collectionSearchText(collection: CollectionStatus): string {
  if (collection.dense.enabled) return "Busca semântica: ativa";
  const reason = collection.dense.reason ? ` (${collection.dense.reason.replace(/\.$/u, "")})` : "";
  return `Busca semântica: desligada${reason}`;
}

const dateTime = new Intl.DateTimeFormat("pt-BR", { dateStyle: "short", timeStyle: "short" });

/** "Última recarga: 29/11/2026, 22:48 (24 ms)", or that it was not reloaded since the server started. */
export function lastReloadText(collection: CollectionStatus): string {
  const last = collection.lastReload;
  if (!last) return "Não recarregada desde que o servidor iniciou";
  const at = new Date(last.finishedAt);
  const when = Number.isNaN(at.getTime()) ? last.finishedAt : dateTime.format(at);
  const ms = last.ms >= 1000 ? `${formatNumber(Math.round(last.ms / 100) / 10)} s` : `${formatNumber(last.ms)} ms`;
  return `Última recarga: ${when} (${ms})`;
}
