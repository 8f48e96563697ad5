import { constants, createDeflate } from "node:zlib";

/**
 * Hostile PDFs for the abuse suite (issue 43), written byte by byte: one page whose content
 * stream is FlateDecode-compressed and inflates to `inflatedBytes` (a small file, a huge text).
 * `kind` "text" repeats a text-showing operator (every byte of it becomes extracted text);
 * "paths" repeats a path operator (no text at all, only work for the content-stream parser).
 */
export interface HostilePdfOptions {
  /** Size of the content stream once inflated, in bytes (rounded down to whole operators). */
  inflatedBytes: number;
  kind?: "text" | "paths";
}

export async function inflatingPdf(options: HostilePdfOptions): Promise<Buffer> {
  const kind = options.kind ?? "text";
  const operator = kind === "text" ? "1 0 0 1 72 700 Tm (a palavra de Deus permanece para sempre) Tj\n" : "1 1 m 2 2 l S\n";
  const repeats = Math.floor(options.inflatedBytes / operator.length);
  const unit = Buffer.from(operator.repeat(4096), "latin1");
  const head = Buffer.from("BT /F1 12 Tf 72 720 Td\n", "latin1");
  const tail = Buffer.from("ET\n", "latin1");
  // Streamed into deflate in pieces: the inflated stream never sits whole in the test's memory.
  const deflate = createDeflate({ level: constants.Z_BEST_COMPRESSION });
  const out: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    deflate.once("end", resolve);
    deflate.once("error", reject);
  });
  const write = (piece: Buffer) => (deflate.write(piece) ? Promise.resolve() : new Promise<void>((resolve) => deflate.once("drain", resolve)));
  await write(head);
  for (let done = 0; done < repeats; done += 4096) {
    await write(repeats - done >= 4096 ? unit : Buffer.from(operator.repeat(repeats - done), "latin1"));
  }
  deflate.end(tail);
  await ended;
  return pdfWithContent(Buffer.concat(out));
}

/** A one-page PDF (Helvetica as F1) whose page content is the given FlateDecode stream. */
function pdfWithContent(content: Buffer): Buffer {
  const objects: Buffer[] = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>", "latin1"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "latin1"),
    Buffer.from("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>", "latin1"),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>", "latin1"),
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`, "latin1"),
      content,
      Buffer.from("\nendstream", "latin1"),
    ]),
  ];
  const chunks: Buffer[] = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let offset = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, "latin1"), body, Buffer.from("\nendobj\n", "latin1")]);
    chunks.push(object);
    offset += object.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, "0000000000 65535 f \n", ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`, "latin1"));
  return Buffer.concat(chunks);
}
