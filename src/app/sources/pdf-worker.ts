/**
 * A worker thread that reads PDFs (src/adapters/sources/pdf.ts), one at a time, for
 * ./pdf-extractor.ts: PDF.js parses content streams on the thread that calls it, so a hostile
 * PDF reads here, where the caller can stop it, never on the server's event loop; and it
 * inflates streams only as far as it reads them (see below), so memory follows the limits.
 */
import { parentPort } from "node:worker_threads";
import { DocumentReadError, type DocumentReadErrorCode } from "../../adapters/sources/document-errors.js";
import { readPdf, type PdfContent } from "../../adapters/sources/pdf.js";

export interface PdfJob {
  id: number;
  bytes: Uint8Array;
  label: string;
  maxChars: number;
}

export type PdfWorkerMessage =
  | { type: "ready" }
  | { type: "read"; id: number; content: PdfContent }
  | { type: "failed"; id: number; code: DocumentReadErrorCode; message: string };

if (parentPort) {
  // PDF.js inflates a whole content stream at once through the platform's DecompressionStream
  // when there is one (400 MB of memory for a 1.2 MB file); without it, it inflates as its
  // parser reads, so a reading stopped at the text limit or the time limit has inflated only
  // what it read. Text extraction does not need the speed.
  Reflect.deleteProperty(globalThis, "DecompressionStream");
  const port = parentPort;
  port.on("message", (job: PdfJob) => {
    readPdf(job.bytes, job.label, { maxChars: job.maxChars }).then(
      (content) => port.postMessage({ type: "read", id: job.id, content } satisfies PdfWorkerMessage),
      (error: unknown) => {
        const failure =
          error instanceof DocumentReadError
            ? error
            : new DocumentReadError("pdf_unreadable", job.label, `${job.label}: não foi possível ler o PDF (${error instanceof Error ? error.message : String(error)}).`);
        port.postMessage({ type: "failed", id: job.id, code: failure.code, message: failure.message } satisfies PdfWorkerMessage);
      },
    );
  });
  port.postMessage({ type: "ready" } satisfies PdfWorkerMessage);
}
