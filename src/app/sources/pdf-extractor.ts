/**
 * Reads PDFs off the event loop, within a time limit: a worker thread (./pdf-worker.ts) runs
 * PDF.js, and a PDF that takes longer than `timeoutMs` (a content stream that inflates to
 * endless operators), or that exhausts the worker's memory, has its worker terminated and is
 * reported as failed — a {@link DocumentReadError} naming the file, in Portuguese — while the
 * thread that asked (the server's, serving `/api/health` and the chat) never stops. The worker
 * is started on the first PDF, kept for the next ones (one at a time), replaced after a failure
 * (its memory goes with it), and let go by `close()`; it never keeps the process alive.
 */
import type { Worker } from "node:worker_threads";
import { DocumentReadError } from "../../adapters/sources/document-errors.js";
import type { PdfContent } from "../../adapters/sources/pdf.js";
import { startAppWorker } from "../start-worker.js";
import type { PdfJob, PdfWorkerMessage } from "./pdf-worker.js";

export interface PdfExtractorOptions {
  /** The longest one PDF may take to read (PDF_TIMEOUT_MS), from the moment the worker has it. */
  timeoutMs: number;
  /** Most characters of a PDF's text (MAX_CONTENT_CHARS): the reading stops there (`document_too_large`). */
  maxChars: number;
  /** The worker's JavaScript heap, in MB (default 512). */
  maxHeapMb?: number;
}

/** The longest a new worker may take to load PDF.js before a PDF is refused for it. */
const STARTUP_LIMIT_MS = 60_000;

export class PdfExtractor {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private nextId = 0;
  private busy = false;
  /** Workers being terminated: close() waits for them, so their memory is gone when it returns. */
  private readonly ending = new Set<Promise<number>>();

  constructor(private readonly options: PdfExtractorOptions) {}

  /**
   * The text of a PDF's pages and its title, read in the worker.
   *
   * @throws {DocumentReadError} `pdf_unreadable`, `pdf_encrypted`, `document_too_large` (from
   *   the reader), `pdf_timeout` (stopped after `timeoutMs`) or `pdf_extraction_failed` (the
   *   worker ran out of memory or died reading it); a plain Error when the worker cannot start.
   */
  async extract(bytes: Uint8Array, label: string): Promise<PdfContent> {
    // A bug of the caller, not of the document: the folder reader reads one file at a time.
    if (this.busy) throw new Error("PdfExtractor reads one PDF at a time");
    this.busy = true;
    try {
      const worker = this.start();
      // A reader that cannot start is not this document's failure: the reload fails as a whole (nothing is lost).
      await this.ready?.catch((error: unknown) => {
        throw new Error(`não foi possível iniciar o leitor de PDF para ${label}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      });
      return await this.run(worker, bytes, label);
    } finally {
      this.busy = false;
    }
  }

  /** Terminates the worker, if one runs, and waits until every worker it started has ended. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (worker) this.discard(worker);
    await Promise.all(this.ending);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = startAppWorker("sources/pdf-worker", { resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 512 } });
    this.worker = worker;
    // A worker that dies between two PDFs is replaced at the next (an 'error' without a listener would throw here).
    worker.on("error", () => this.discard(worker));
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`o leitor de PDF não iniciou em ${STARTUP_LIMIT_MS / 1000} s`)), STARTUP_LIMIT_MS);
      const done = (settle: () => void) => {
        clearTimeout(timer);
        worker.off("message", onMessage).off("error", onError).off("exit", onExit);
        settle();
      };
      const onMessage = (message: PdfWorkerMessage) => {
        if (message.type === "ready") done(resolve);
      };
      const onError = (error: Error) => done(() => reject(error));
      const onExit = (code: number) => done(() => reject(new Error(`o leitor de PDF terminou ao iniciar (código ${code})`)));
      worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    });
    // A failed start is reported by the extract that waits for it; the worker is dropped.
    this.ready.catch(() => this.discard(worker));
    return worker;
  }

  private run(worker: Worker, bytes: Uint8Array, label: string): Promise<PdfContent> {
    const { timeoutMs, maxChars } = this.options;
    const id = ++this.nextId;
    return new Promise<PdfContent>((resolve, reject) => {
      const settle = (outcome: { content: PdfContent } | { error: DocumentReadError }) => {
        clearTimeout(timer);
        worker.off("message", onMessage).off("error", onError).off("exit", onExit);
        if ("content" in outcome) {
          worker.unref();
          resolve(outcome.content);
        } else {
          // Whatever the worker still holds of a document that failed goes with it.
          this.discard(worker);
          reject(outcome.error);
        }
      };
      const timer = setTimeout(() => {
        const seconds = (timeoutMs / 1000).toLocaleString("pt-BR");
        settle({
          error: new DocumentReadError(
            "pdf_timeout",
            label,
            `${label}: a leitura do PDF passou de ${seconds} s (o limite, PDF_TIMEOUT_MS) e foi interrompida; o arquivo tem conteúdo demais para ler (ou está montado para travar a leitura).`,
          ),
        });
      }, timeoutMs);
      const onMessage = (message: PdfWorkerMessage) => {
        if (message.type === "read" && message.id === id) settle({ content: message.content });
        else if (message.type === "failed" && message.id === id) settle({ error: new DocumentReadError(message.code, label, message.message) });
      };
      const onError = (error: Error) => settle({ error: this.failed(label, error) });
      const onExit = (code: number) => settle({ error: this.failed(label, new Error(`o leitor terminou com o código ${code}`)) });
      worker.on("message", onMessage).on("error", onError).on("exit", onExit);
      worker.ref();
      // A copy the worker takes whole: the caller's bytes stay as they are (they are hashed, and may be read again).
      const copy = new Uint8Array(bytes);
      worker.postMessage({ id, bytes: copy, label, maxChars } satisfies PdfJob, [copy.buffer]);
    });
  }

  private failed(label: string, error: unknown): DocumentReadError {
    const outOfMemory = (error as { code?: unknown } | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY";
    const detail = outOfMemory ? "a leitura esgotou a memória reservada para ela" : error instanceof Error ? error.message : String(error);
    return new DocumentReadError("pdf_extraction_failed", label, `${label}: a leitura do PDF falhou e foi interrompida (${detail}).`, { cause: error });
  }

  private discard(worker: Worker): void {
    if (this.worker === worker) {
      this.worker = undefined;
      this.ready = undefined;
    }
    const ending = worker.terminate().catch(() => 0);
    this.ending.add(ending);
    void ending.finally(() => this.ending.delete(ending));
  }
}
