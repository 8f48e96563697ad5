/**
 * Reading a document collection from a folder (issue 6): lesson files in markdown/text and real
 * PDFs (generated here with pdf-lib), hidden and unrelated files ignored, one bad document never
 * failing the load, and the sample collection shipped in collections/exemplo/.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentReadError, type DocumentWarning } from "../src/adapters/sources/document-errors.js";
import { hashBytes, readCollectionFolder, slugify } from "../src/adapters/sources/folder.js";
import { normalizePageText, readPdf, type PdfContent } from "../src/adapters/sources/pdf.js";
import { PdfExtractor } from "../src/app/sources/pdf-extractor.js";
import { inflatingPdf } from "./support/hostile-pdf.js";
import type { RawDocument } from "../src/core/documents/types.js";

const HEADER = "[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA]";
const END = "====== FIM DOS METADADOS ======";

const WITH_BLOCK = `${HEADER}
Disciplina: Teologia Sistemática
Título: A Criação
Keywords: criação, Gênesis
${END}

# A Criação

No princípio criou Deus os céus e a terra.
`;
const LEGACY = "# Aula antiga\n\nTexto sem bloco de metadados: graça e fé.\n";
const BROKEN = `${HEADER}\nTítulo: Sem fim\n\n# Bloco quebrado\n\nFalta o marcador de fim.\n`;

/** Text drawn on each page of the generated PDF, one string per line. */
const PDF_PAGES: string[][] = [
  ["Gênesis: a criação do mundo", "Deus viu que era bom; ação e coração."],
  ["Êxodo: libertação do Egito", "Moisés e a travessia do mar."],
  ["Salmos: oração e louvor", "Canção de esperança, fé e gratidão."],
];
const PDF_TITLE = "Estudo do Pentateuco — introdução";

/** A real PDF with one page per entry of `pages` (standard Helvetica: WinAnsi, covers Portuguese). */
async function makePdf(pages: string[][], title?: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  if (title !== undefined) doc.setTitle(title);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([420, 595]);
    lines.forEach((line, i) => page.drawText(line, { x: 40, y: 540 - i * 20, size: 12, font }));
  }
  return doc.save();
}

/** Deterministic pseudo-random bytes (no PDF header anywhere). */
function garbage(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = 0x2545f491;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/**
 * A one-page PDF ("Segredo: ação") encrypted with a user password (AES-256), made once with
 * `qpdf --encrypt user owner 256 -- plain.pdf enc.pdf` from a pdf-lib page (pdf-lib cannot
 * encrypt), kept inline to avoid a binary fixture.
 */
const ENCRYPTED_PDF = Buffer.from(
  [
    "JVBERi0xLjcKJb/3ov4KMSAwIG9iago8PCAvRXh0ZW5zaW9ucyA8PCAvQURCRSA8PCAvQmFzZVZlcnNpb24gLzEuNyAvRXh0ZW5z",
    "aW9uTGV2ZWwgOCA+PiA+PiAvUGFnZXMgMyAwIFIgL1R5cGUgL0NhdGFsb2cgPj4KZW5kb2JqCjIgMCBvYmoKPDwgL1R5cGUgL09i",
    "alN0bSAvTGVuZ3RoIDM2OCAvRmlsdGVyIC9GbGF0ZURlY29kZSAvTiA0IC9GaXJzdCAyMSA+PgpzdHJlYW0Kp6HDP2ydOZ1tjdkm",
    "rLTDlB0vZmes3Yb9x3wK7l4TnX5gFW72UUZiiu5HsqQmlIF2vaAosC17eOslu9chGhweiuTsicpr9iM2DdbBykwC8RByt8DVrx4S",
    "xV2aqFZuc6Ieru05YfnrX11wyw8LYoqTMIJa0GP6FLiwtr03JEL1YGQLeQlHQCertdRVoueM4YvmAW++bROjXcaVIDLQgWK4ruQH",
    "P8eLhTt3SMGFmFOEvDUulOgHPoSxeY2sq9DH+LnmZRopV9ljj5ugPgm2NJQj0MmrUC2iKBT6HFBbfDanUcwojElHCCkTOPBqDDwf",
    "568eoksDB8dywHtIoFl2H5nqpAFlQzTP0Qf7EApAulDlBvr1CJLyymWJx9iMzb2xX39vP19rgInCEwdg/CBdKhb+6UftGMl48Ewb",
    "8AEST08MBdC0fR9+16dhCqB6Eh4CSQNfeX885rImy5sTvkM/7ibeAWAm5fs6/cGl3ra4Thsyt7tlbmRzdHJlYW0KZW5kb2JqCjcg",
    "MCBvYmoKPDwgL0ZpbHRlciAvRmxhdGVEZWNvZGUgL0xlbmd0aCAxMjggPj4Kc3RyZWFtClxD9najT956QTgczcQodYmK5LxVU2Ch",
    "VAIOEWhUWgGCa6ZVR5NsRBuvS5rngyr7UZzQM/U36Jdgd/8J06D2dajq8rkwduPkNo6niK8j9GRZQJV76DD5MHH+0DtUQDjoQf7g",
    "E7HxftK2ZHJqe3XVDhf3Q89xM7wo4e+MPwNisgRxZW5kc3RyZWFtCmVuZG9iago4IDAgb2JqCjw8IC9DRiA8PCAvU3RkQ0YgPDwg",
    "L0F1dGhFdmVudCAvRG9jT3BlbiAvQ0ZNIC9BRVNWMyAvTGVuZ3RoIDMyID4+ID4+IC9GaWx0ZXIgL1N0YW5kYXJkIC9MZW5ndGgg",
    "MjU2IC9PIDw3MDQ4YjRiODgyN2RmMGJlZGZiMzU2OGNjNDE4OWJmZjUwOWQwYmU2ZGUzYTVhNTNlZGNmYWUyZjhmZjgxZDQwOTk5",
    "MzlmYzVkNzUxMjFkZTkxNWI4NTY4ZjE0MTc2MTg+IC9PRSA8Zjc5YmM1YmZlNzJhN2Y0Y2Y2YjY0ZGIyMTAxZWM4ODE0MzUwYjE5",
    "OTI3YzZhNmYyZjQ5ZmNlZTNlOTlkYTFmYT4gL1AgLTQgL1Blcm1zIDw0YTI3ODBkOTYyMmUyYTZiODI0NTIyNGI1Zjg2NGRlNz4g",
    "L1IgNiAvU3RtRiAvU3RkQ0YgL1N0ckYgL1N0ZENGIC9VIDwxYjkzMmI1OGU5MzZjNWE0MmYxNmI4MzkzYjFiNTEwZTc4NmVjNTBi",
    "MmQ5Mzk4ODQ4ZTUwNGU2NTdhMGY1ZTExMDU5YTkwOTA1M2UwYmQ0OTlmOTg3OWUzODMzYjRmMWM+IC9VRSA8Mjc5YTIwNWFiN2Y2",
    "NjE1ZTVhZGM1Mjc1OWVkMmNjYTg3N2Y4NDE2NDg4YTU4MGRlN2I4MGFjMDhmMzQ5NTNmOT4gL1YgNSA+PgplbmRvYmoKOSAwIG9i",
    "ago8PCAvVHlwZSAvWFJlZiAvTGVuZ3RoIDQyIC9GaWx0ZXIgL0ZsYXRlRGVjb2RlIC9EZWNvZGVQYXJtcyA8PCAvQ29sdW1ucyA0",
    "IC9QcmVkaWN0b3IgMTIgPj4gL1cgWyAxIDIgMSBdIC9JbmZvIDQgMCBSIC9Sb290IDEgMCBSIC9TaXplIDEwIC9JRCBbPGEwYTk0",
    "ZTNjY2I5ODk5NmU1MjU4NzYzYWYxNTM0YTdhPjxhMGE5NGUzY2NiOTg5OTZlNTI1ODc2M2FmMTUzNGE3YT5dIC9FbmNyeXB0IDgg",
    "MCBSID4+CnN0cmVhbQp4nGNiAAImRgZ+BiYGhmIQqwHEYmBEIv4zhfxlYmA8DpRgUmYAAEiaBFsKZW5kc3RyZWFtCmVuZG9iagpz",
    "dGFydHhyZWYKMTM0NAolJUVPRgo=",
  ].join(""),
  "base64",
);

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

let root = "";
let dir = "";

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "documents-folder-"));
  dir = join(root, "estudos");
  const write = async (rel: string, content: string | Uint8Array): Promise<void> => {
    const path = join(dir, ...rel.split("/"));
    await mkdir(join(path, ".."), { recursive: true });
    await writeFile(path, content);
  };
  await write("Introdução à Fé.md", `\uFEFF${WITH_BLOCK}`);
  await write("grande.md", `# Grande\n\n${"palavra ".repeat(1000)}`);
  await write("latin1.txt", Buffer.from("Lição de oração e coração.\n", "latin1"));
  await write("livros/genesis.pdf", await makePdf(PDF_PAGES, PDF_TITLE));
  await write("livros/corrompido.pdf", garbage(4096));
  await write("notas.MD", LEGACY);
  await write("teologia/aula-1.md", WITH_BLOCK);
  await write("teologia/aula-legada.txt", LEGACY);
  await write("teologia/quebrada.markdown", BROKEN);
  await write("teologia/sub/aula-1.md", "# Mesma slug, outra pasta\n");
  // Ignored: hidden file, hidden folder, other extensions.
  await write(".oculto.md", LEGACY);
  await write(".rascunhos/aula.md", LEGACY);
  await write("teologia/imagem.png", garbage(64));
  await write("teologia/planilha.csv", "a,b\n");
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function load(maxContentChars = 5000): Promise<{ docs: RawDocument[]; warnings: DocumentWarning[] }> {
  const warnings: DocumentWarning[] = [];
  const docs = await readCollectionFolder(dir, {
    collection: "estudos",
    maxContentChars,
    onWarning: (w) => warnings.push(w),
  });
  return { docs, warnings };
}

function bySource(docs: RawDocument[], sourceId: string): RawDocument {
  const doc = docs.find((d) => d.sourceId === sourceId);
  if (!doc) throw new Error(`document ${sourceId} not loaded`);
  return doc;
}

describe("readCollectionFolder", () => {
  it("finds the lesson files, sorted by relative path, ignoring hidden and unrelated files", async () => {
    const { docs } = await load();
    expect(docs.map((d) => d.sourceId)).toEqual([
      "Introdução à Fé.md",
      "latin1.txt",
      "livros/genesis.pdf",
      "notas.MD",
      "teologia/aula-1.md",
      "teologia/aula-legada.txt",
      "teologia/quebrada.markdown",
      "teologia/sub/aula-1.md",
    ]);
    expect(docs.every((d) => d.collection === "estudos")).toBe(true);
  });

  it("gives the same result on a second read (deterministic)", async () => {
    const first = await load();
    const second = await load();
    expect(second).toEqual(first);
  });

  it("sets discipline, slug and sourceId", async () => {
    const { docs } = await load();
    const summary = docs.map((d) => [d.sourceId, d.discipline, d.slug]);
    expect(summary).toEqual([
      ["Introdução à Fé.md", "estudos", "introducao-a-fe"],
      ["latin1.txt", "estudos", "latin1"],
      ["livros/genesis.pdf", "livros", "genesis"],
      ["notas.MD", "estudos", "notas"],
      ["teologia/aula-1.md", "teologia", "aula-1"],
      ["teologia/aula-legada.txt", "teologia", "aula-legada"],
      ["teologia/quebrada.markdown", "teologia", "quebrada"],
      // Deeper folders keep the first-level discipline; a repeated slug gets a suffix.
      ["teologia/sub/aula-1.md", "teologia", "aula-1-2"],
    ]);
  });

  it("hashes the raw bytes with SHA-256 (BOM included) and strips the BOM from the content", async () => {
    const { docs } = await load();
    for (const doc of docs) {
      const bytes = await readFile(join(dir, ...doc.sourceId.split("/")));
      expect(doc.sha256, doc.sourceId).toBe(sha256(bytes));
    }
    const withBom = bySource(docs, "Introdução à Fé.md");
    expect(withBom.content).toBe(WITH_BLOCK);
    expect(withBom.content.charCodeAt(0)).not.toBe(0xfeff);
    // Same text without the BOM: same content, different hash.
    expect(bySource(docs, "teologia/aula-1.md").content).toBe(WITH_BLOCK);
    expect(bySource(docs, "teologia/aula-1.md").sha256).not.toBe(withBom.sha256);
  });

  it("reads text files as they are: block, legacy and broken block alike, no title, no pages", async () => {
    const { docs } = await load();
    expect(bySource(docs, "teologia/aula-legada.txt").content).toBe(LEGACY);
    expect(bySource(docs, "teologia/quebrada.markdown").content).toBe(BROKEN);
    expect(bySource(docs, "notas.MD").content).toBe(LEGACY);
    for (const doc of docs.filter((d) => !d.sourceId.endsWith(".pdf"))) {
      expect(doc.title, doc.sourceId).toBeUndefined();
      expect(doc.pages, doc.sourceId).toBeUndefined();
    }
  });

  it("reads a real PDF page by page, with accents, and takes its title from the metadata", async () => {
    const { docs } = await load();
    const pdf = bySource(docs, "livros/genesis.pdf");
    expect(pdf.title).toBe(PDF_TITLE);
    expect(pdf.pages?.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(pdf.pages?.map((p) => p.text)).toEqual(PDF_PAGES.map((lines) => lines.join("\n")));
    expect(pdf.pages?.[0]?.text).toContain("ação e coração");
    expect(pdf.pages?.[1]?.text).toContain("Êxodo");
    expect(pdf.pages?.[1]?.text).toContain("Moisés");
    expect(pdf.pages?.[2]?.text).toContain("esperança, fé e gratidão");
    expect(pdf.pages?.[0]?.text).not.toContain("Êxodo");
    expect(pdf.content).toBe(PDF_PAGES.map((lines) => lines.join("\n")).join("\n\n"));
  });

  it("skips a corrupt PDF with a warning naming it, and loads the rest", async () => {
    const { docs, warnings } = await load();
    const warning = warnings.find((w) => w.file === "livros/corrompido.pdf");
    expect(warning?.code).toBe("pdf_unreadable");
    expect(warning?.message).toContain("livros/corrompido.pdf");
    expect(warning?.message).toMatch(/PDF/);
    expect(docs.some((d) => d.sourceId === "livros/corrompido.pdf")).toBe(false);
    expect(docs).toHaveLength(8);
  });

  it("skips a document over maxContentChars with a warning, and keeps it under a larger limit", async () => {
    const { docs, warnings } = await load(5000);
    const warning = warnings.find((w) => w.file === "grande.md");
    expect(warning?.code).toBe("document_too_large");
    expect(warning?.message).toContain("grande.md");
    expect(docs.some((d) => d.sourceId === "grande.md")).toBe(false);

    const roomy = await load(10_000);
    expect(roomy.docs.some((d) => d.sourceId === "grande.md")).toBe(true);
    expect(roomy.warnings.some((w) => w.code === "document_too_large")).toBe(false);
  });

  it("reports every warning in path order, and only these", async () => {
    const { warnings } = await load();
    expect(warnings.map((w) => [w.code, w.file])).toEqual([
      ["document_too_large", "grande.md"],
      ["encoding_fallback", "latin1.txt"],
      ["pdf_unreadable", "livros/corrompido.pdf"],
    ]);
  });

  it("reads a non-UTF-8 text file as Windows-1252", async () => {
    const { docs } = await load();
    expect(bySource(docs, "latin1.txt").content).toBe("Lição de oração e coração.\n");
  });

  it("works without onWarning", async () => {
    const docs = await readCollectionFolder(dir, { collection: "estudos", maxContentChars: 10 });
    expect(docs).toEqual([]);
  });

  it("throws DocumentReadError collection_not_found for a missing folder or a file", async () => {
    const missing = join(root, "nao-existe");
    const error = await readCollectionFolder(missing, { collection: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentReadError);
    expect((error as DocumentReadError).code).toBe("collection_not_found");
    expect((error as DocumentReadError).file).toBe(missing);
    expect((error as DocumentReadError).message).toContain(missing);
    expect((error as DocumentReadError).message).toMatch(/Pasta da coleção não encontrada/);

    const file = join(dir, "notas.MD");
    const notDir = await readCollectionFolder(file, { collection: "x" }).catch((e: unknown) => e);
    expect((notDir as DocumentReadError).code).toBe("collection_not_found");
  });
});

describe("readPdf", () => {
  it("keeps empty pages with empty text and exact page numbers", async () => {
    const bytes = await makePdf([["Primeira página"], [], ["Terceira página"]]);
    const { pages, title } = await readPdf(bytes, "vazia.pdf");
    expect(pages).toEqual([
      { page: 1, text: "Primeira página" },
      { page: 2, text: "" },
      { page: 3, text: "Terceira página" },
    ]);
    expect(title).toBeUndefined();
  });

  it("mends line-end hyphens and leaves the caller's bytes intact", async () => {
    const bytes = await makePdf([["A pala-", "vra de Deus e o guarda-", "-chuva."]]);
    const copy = bytes.slice();
    const { pages } = await readPdf(bytes, "hifen.pdf");
    expect(pages[0]?.text).toBe("A palavra de Deus e o guarda-chuva.");
    expect(bytes).toEqual(copy);
    expect(bytes.byteLength).toBe(copy.byteLength);
  });

  it("accepts a Node Buffer (what readFile returns)", async () => {
    const buffer = Buffer.from(await makePdf([["Texto em Buffer: ação"]], "Título"));
    const { pages, title } = await readPdf(buffer, "buffer.pdf");
    expect(pages).toEqual([{ page: 1, text: "Texto em Buffer: ação" }]);
    expect(title).toBe("Título");
    expect(buffer.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  it("rejects non-PDF bytes, an empty file and a truncated PDF with pdf_unreadable", async () => {
    const real = await makePdf(PDF_PAGES);
    for (const [label, bytes] of [
      ["lixo.pdf", garbage(2048)],
      ["vazio.pdf", new Uint8Array()],
      ["texto.pdf", new TextEncoder().encode("isto não é um PDF")],
      ["cortado.pdf", real.slice(0, 20)],
    ] as const) {
      const error = await readPdf(bytes, label).catch((e: unknown) => e);
      expect(error, label).toBeInstanceOf(DocumentReadError);
      expect((error as DocumentReadError).code, label).toBe("pdf_unreadable");
      expect((error as DocumentReadError).file, label).toBe(label);
      expect((error as DocumentReadError).message, label).toContain(label);
    }
  });

  it("rejects a password-protected PDF with pdf_encrypted", async () => {
    const error = await readPdf(ENCRYPTED_PDF, "secreto.pdf").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentReadError);
    expect((error as DocumentReadError).code).toBe("pdf_encrypted");
    expect((error as DocumentReadError).message).toBe("secreto.pdf: o PDF está protegido por senha e não pode ser lido.");
  });
});

describe("readPdf within a size (issue 43)", () => {
  it("stops reading as soon as the text passes maxChars, naming the file and the page", async () => {
    // 3 MB of text operators inflated from a few KB: about 2 million characters of text.
    const bomb = await inflatingPdf({ inflatedBytes: 3 * 1024 * 1024 });
    expect(bomb.length).toBeLessThan(20_000);
    const error = await readPdf(bomb, "bomba.pdf", { maxChars: 50_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentReadError);
    expect(error).toMatchObject({ code: "document_too_large", file: "bomba.pdf" });
    expect((error as Error).message).toBe(
      "bomba.pdf: documento grande demais (o texto do PDF passa de 50.000 caracteres, o limite, já na página 1; a leitura foi interrompida ali).",
    );
  });

  it("counts the pages read before, and the blank line between pages, against the limit", async () => {
    const bytes = await makePdf(PDF_PAGES);
    const texts = PDF_PAGES.map((lines) => lines.join("\n"));
    const exact = texts.join("\n\n").length;
    await expect(readPdf(bytes, "livro.pdf", { maxChars: exact })).resolves.toMatchObject({ pages: texts.map((text, i) => ({ page: i + 1, text })) });
    const error = await readPdf(bytes, "livro.pdf", { maxChars: texts[0]!.length + 2 + texts[1]!.length - 5 }).catch((e: unknown) => e);
    expect((error as Error).message).toContain("já na página 2");
  });

  it("in a worker: the text of a real PDF; a PDF past the time limit stopped and named; the next one read by a new worker", async () => {
    const extractor = new PdfExtractor({ timeoutMs: 1500, maxChars: 4_000_000 });
    try {
      const real = await makePdf(PDF_PAGES, PDF_TITLE);
      await expect(extractor.extract(real, "livros/genesis.pdf")).resolves.toEqual(await readPdf(real, "x"));
      // Path operators only: no text to count, endless work for the content-stream parser.
      const endless = await inflatingPdf({ inflatedBytes: 60 * 1024 * 1024, kind: "paths" });
      const started = performance.now();
      const error = await extractor.extract(endless, "lento.pdf").catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(error).toBeInstanceOf(DocumentReadError);
      expect(error).toMatchObject({ code: "pdf_timeout", file: "lento.pdf" });
      expect((error as Error).message).toMatch(/^lento\.pdf: a leitura do PDF passou de 1,5 s \(o limite, PDF_TIMEOUT_MS\) e foi interrompida/);
      const damaged = await extractor.extract(garbage(2048), "lixo.pdf").catch((e: unknown) => e);
      expect(damaged).toMatchObject({ code: "pdf_unreadable", file: "lixo.pdf" });
      await expect(extractor.extract(real, "de-novo.pdf")).resolves.toMatchObject({ title: PDF_TITLE });
    } finally {
      await extractor.close();
    }
  });

  it("skips a PDF whose bytes failed before without reading it, and gives a PDF's failure its bytes' hash", async () => {
    const read: string[] = [];
    const warnings: DocumentWarning[] = [];
    const options = {
      collection: "estudos",
      onWarning: (w: DocumentWarning) => warnings.push(w),
      readPdf: (bytes: Uint8Array, file: string, maxChars: number): Promise<PdfContent> => {
        read.push(file);
        return readPdf(bytes, file, { maxChars });
      },
    };
    await readCollectionFolder(dir, options);
    expect(read).toEqual(["livros/corrompido.pdf", "livros/genesis.pdf"]);
    const corrupt = warnings.find((w) => w.file === "livros/corrompido.pdf")!;
    expect(corrupt.sha256).toBe(sha256(await readFile(join(dir, "livros", "corrompido.pdf"))));
    expect(warnings.find((w) => w.file === "latin1.txt")!.sha256).toBeUndefined();

    read.length = 0;
    warnings.length = 0;
    const remembered = { code: "pdf_unreadable" as const, file: "livros/corrompido.pdf", message: "lembrado" };
    const docs = await readCollectionFolder(dir, {
      ...options,
      knownFailure: (file, hash) => (file === corrupt.file && hash === corrupt.sha256 ? remembered : undefined),
    });
    expect(read).toEqual(["livros/genesis.pdf"]);
    expect(warnings.find((w) => w.file === "livros/corrompido.pdf")).toEqual(remembered);
    expect(docs.map((d) => d.sourceId)).toContain("livros/genesis.pdf");
  });
});

describe("helpers", () => {
  it("normalizePageText collapses whitespace and keeps paragraph breaks", () => {
    expect(normalizePageText("  Olá \t mundo  \n\n\n\n  segunda\u00a0 linha \r\n")).toBe("Olá mundo\n\nsegunda linha");
    expect(normalizePageText("Termina com -\nOutra")).toBe("Termina com -\nOutra");
    expect(normalizePageText("Capítulo-\nDois")).toBe("Capítulo-\nDois");
  });

  it("slugify folds accents and makes URL-safe slugs", () => {
    expect(slugify("Introdução à Fé")).toBe("introducao-a-fe");
    expect(slugify("  Aula 01: Gênesis (parte 2)  ")).toBe("aula-01-genesis-parte-2");
    expect(slugify("???")).toBe("documento");
  });

  it("hashBytes is node's SHA-256 hex", () => {
    const bytes = new TextEncoder().encode("coração");
    expect(hashBytes(bytes)).toBe(sha256(bytes));
  });
});

describe("the sample collection collections/exemplo/", () => {
  const exemplo = fileURLToPath(new URL("../collections/exemplo", import.meta.url));

  it("loads every lesson without warnings: with a block, legacy and broken block", async () => {
    const warnings: DocumentWarning[] = [];
    const docs = await readCollectionFolder(exemplo, { collection: "exemplo", onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
    expect(docs.map((d) => [d.sourceId, d.discipline, d.slug])).toEqual([
      ["como-ler-a-biblia.md", "exemplo", "como-ler-a-biblia"],
      ["hermeneutica/parabolas-de-jesus.md", "hermeneutica", "parabolas-de-jesus"],
      ["teologia/a-trindade.md", "teologia", "a-trindade"],
      ["teologia/inspiracao-das-escrituras.md", "teologia", "inspiracao-das-escrituras"],
    ]);
    const kind = (d: RawDocument): string =>
      d.content.startsWith(HEADER) ? (d.content.includes(END) ? "block" : "broken") : "legacy";
    expect(docs.map(kind)).toEqual(["legacy", "block", "block", "broken"]);
    for (const doc of docs) {
      const words = doc.content.split(/\s+/).filter(Boolean).length;
      expect(words, doc.sourceId).toBeGreaterThanOrEqual(150);
      expect(words, doc.sourceId).toBeLessThanOrEqual(450);
    }
  });
});
