/**
 * Bad and hostile input for the USFX parser: every failure is a UsfxError with a code and a
 * Portuguese message naming the file (and line/column when known); nothing crashes the process.
 */
import { createReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadUsfxFile, readUsfxFile } from "../src/adapters/sources/usfx-file.js";
import { parseUsfx, UsfxError, type UsfxErrorCode } from "../src/core/sources/usfx.js";
import type { Verse } from "../src/core/types.js";

let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "usfx-errors-"));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function writeTmp(name: string, content: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

/** Loads `path` and returns the UsfxError it must reject with. */
async function failure(promise: Promise<unknown>): Promise<UsfxError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(UsfxError);
    return error as UsfxError;
  }
  throw new Error("expected a UsfxError, but parsing succeeded");
}

/** An async iterable over the given chunks (parseUsfx takes streams and async iterables). */
async function* chunks<T extends string | Buffer>(...parts: T[]): AsyncGenerator<T> {
  yield* parts;
}

async function collect(iterable: AsyncIterable<Verse>): Promise<Verse[]> {
  const out: Verse[] = [];
  for await (const v of iterable) out.push(v);
  return out;
}

function expectError(error: UsfxError, code: UsfxErrorCode, file: string): void {
  expect(error.code).toBe(code);
  expect(error.file).toBe(file);
  expect(error.name).toBe("UsfxError");
  expect(error.message.startsWith(`${file}:`)).toBe(true);
}

const MINIMAL = '<usfx><book id="GEN"><h>Gênesis</h><c id="1"/><p><v id="1"/>No princípio.<ve/></p></book></usfx>';

describe("malformed XML", () => {
  it("names file, line and column", async () => {
    const path = await writeTmp(
      "bad.usfx.xml",
      [
        '<?xml version="1.0" encoding="utf-8"?>',
        "<usfx>",
        '<book id="GEN">',
        '<c id="1"/>',
        '<p><v id="1"/>No princípio</q>', // line 5: </q> closes <p>; its ">" is column 30
        "</book></usfx>",
        "",
      ].join("\n"),
    );
    const error = await failure(loadUsfxFile(path));
    expectError(error, "xml_malformed", "bad.usfx.xml");
    expect(error.line).toBe(5);
    expect(error.column).toBe(30);
    expect(error.message).toMatch(/^bad\.usfx\.xml:5:30: XML malformado: /);
    expect(error.message).toContain("</p>");
  });

  it("reports an unclosed element at the end of the file", async () => {
    const path = await writeTmp("truncated.xml", '<usfx>\n<book id="GEN">\n<c id="1"/><v id="1"/>texto');
    const error = await failure(loadUsfxFile(path));
    expectError(error, "xml_malformed", "truncated.xml");
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/^truncated\.xml:3:\d+: XML malformado: /);
  });

  it("refuses entities other than XML's five, and accepts those and numeric references", async () => {
    const undefinedEntity = await failure(
      collect(parseUsfx(chunks(MINIMAL.replace("No princípio.", "&nbsp;No")), { source: "ent.xml" })),
    );
    expectError(undefinedEntity, "xml_malformed", "ent.xml");
    expect(undefinedEntity.message).toContain("entidade");

    const ok = await collect(
      parseUsfx(chunks(MINIMAL.replace("No princípio.", "a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#233;&#x1F600;")), {
        source: "ok.xml",
      }),
    );
    expect(ok[0]!.text).toBe("a & b <c> \"d\" 'e' é😀");
  });

  it("refuses a file that is not XML at all (USFM, plain text)", async () => {
    const path = await writeTmp("gen.sfm", "\\id GEN\n\\c 1\n\\v 1 No princípio\n");
    const error = await failure(loadUsfxFile(path));
    expectError(error, "xml_malformed", "gen.sfm");
    expect([error.line, error.column]).toEqual([1, 1]);
  });

  it("refuses bytes that are not UTF-8", async () => {
    const latin1 = Buffer.from(MINIMAL.replace("princípio", "princ\u00edpio"), "latin1");
    const path = await writeTmp("latin1.xml", latin1);
    const error = await failure(loadUsfxFile(path));
    expectError(error, "xml_malformed", "latin1.xml");
    expect(error.message).toContain("UTF-8");
  });
});

describe("DOCTYPE, billion laughs, XXE", () => {
  const billionLaughs = [
    '<?xml version="1.0"?>',
    "<!DOCTYPE usfx [",
    ' <!ENTITY lol "lol">',
    ' <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">',
    ' <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">',
    ' <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">',
    ' <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">',
    ' <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">',
    ' <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">',
    ' <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">',
    ' <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">',
    ' <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">',
    "]>",
    '<usfx><book id="GEN"><c id="1"/><v id="1"/>&lol9;<ve/></book></usfx>',
    "",
  ].join("\n");

  it("refuses a billion-laughs document at once, without memory growth", async () => {
    const path = await writeTmp("lol.xml", billionLaughs);
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const error = await failure(loadUsfxFile(path));
    const elapsed = performance.now() - started;
    const growth = process.memoryUsage().heapUsed - heapBefore;
    expectError(error, "doctype_refused", "lol.xml");
    expect([error.line, error.column]).toEqual([2, 1]);
    expect(error.message).toBe("lol.xml:2:1: declaração DOCTYPE recusada (DTDs e entidades não são aceitas)");
    expect(elapsed).toBeLessThan(1000);
    expect(growth).toBeLessThan(20 * 1024 * 1024);
  });

  it("refuses an external entity (XXE) and never reads the referenced file", async () => {
    const secret = await writeTmp("secret.txt", "SEGREDO-XXE");
    const xxe = [
      '<?xml version="1.0" encoding="utf-8"?>',
      `<!DOCTYPE usfx [ <!ENTITY xxe SYSTEM "file://${secret}"> ]>`,
      '<usfx><book id="GEN"><c id="1"/><v id="1"/>&xxe;<ve/></book></usfx>',
    ].join("\n");
    const path = await writeTmp("xxe.xml", xxe);
    const error = await failure(loadUsfxFile(path));
    expectError(error, "doctype_refused", "xxe.xml");
    expect(error.message).not.toContain("SEGREDO");
  });

  it("refuses a DOCTYPE split across chunks, with its position", async () => {
    const split = chunks('<?xml version="1.0"?>\n<!DOC', 'TYPE usfx>\n<usfx><book id="GEN"/></usfx>');
    const error = await failure(collect(parseUsfx(split, { source: "split.xml" })));
    expectError(error, "doctype_refused", "split.xml");
    expect([error.line, error.column]).toEqual([2, 1]);
  });

  it("stops reading at the DOCTYPE: an endless DTD is refused after the first chunk", async () => {
    let pulled = 0;
    let closed = false;
    async function* endless(): AsyncGenerator<string> {
      try {
        yield '<?xml version="1.0"?>\n<!DOCTYPE usfx [\n';
        // "Endless" for the parser: 64 MiB of DTD (bounded so that a regression fails instead of hanging).
        while (pulled < 64) {
          pulled++;
          yield `<!ENTITY a${pulled} "${"a".repeat(1 << 20)}">\n`;
        }
        yield ']>\n<usfx><book id="GEN"/></usfx>\n';
      } finally {
        closed = true;
      }
    }
    const error = await failure(collect(parseUsfx(endless(), { source: "endless.xml" })));
    expectError(error, "doctype_refused", "endless.xml");
    expect(pulled).toBe(0);
    expect(closed).toBe(true);
  });
});

describe("not USFX, empty, no books", () => {
  it("refuses an XML whose root is not <usfx>", async () => {
    const path = await writeTmp("page.xml", '<?xml version="1.0"?>\n<html><body><p>Olá</p></body></html>\n');
    const error = await failure(loadUsfxFile(path));
    expectError(error, "not_usfx", "page.xml");
    expect(error.line).toBe(2);
    expect(error.message).toContain("<html>");
  });

  it("refuses a 0-byte file", async () => {
    const path = await writeTmp("empty.xml", "");
    expectError(await failure(loadUsfxFile(path)), "empty_file", "empty.xml");
  });

  it("refuses a whitespace-only file (with a byte-order mark)", async () => {
    const path = await writeTmp("blank.xml", "\uFEFF  \n\t\r\n  ");
    expectError(await failure(loadUsfxFile(path)), "empty_file", "blank.xml");
  });

  it("refuses empty gzip files, compressed or 0 bytes", async () => {
    const empty = await writeTmp("empty-content.xml.gz", gzipSync(Buffer.alloc(0)));
    expectError(await failure(loadUsfxFile(empty)), "empty_file", "empty-content.xml");
    const zero = await writeTmp("zero.xml.gz", "");
    expectError(await failure(loadUsfxFile(zero)), "empty_file", "zero.xml");
  });

  it("refuses a USFX without <book>", async () => {
    const path = await writeTmp("nobooks.xml", '<?xml version="1.0"?>\n<usfx><languageCode>por</languageCode></usfx>\n');
    expectError(await failure(loadUsfxFile(path)), "no_books", "nobooks.xml");
  });

  it("reports I/O problems: missing file, directory, corrupt gzip", async () => {
    const missing = await failure(loadUsfxFile(join(dir, "nope.usfx.xml")));
    expectError(missing, "io", "nope.usfx.xml");
    expect(missing.message).toContain("não encontrado");

    const directory = await failure(loadUsfxFile(dir));
    expect(directory.code).toBe("io");

    const corrupt = await writeTmp("corrupt.xml.gz", "isto não é gzip");
    expectError(await failure(loadUsfxFile(corrupt)), "io", "corrupt.xml");
  });
});

describe("streams", () => {
  it("reads gzip transparently and names the source without .gz", async () => {
    const path = await writeTmp("mini.usfx.xml.gz", gzipSync(Buffer.from(MINIMAL)));
    const verses = await loadUsfxFile(path);
    expect(verses).toEqual([
      {
        source: "mini.usfx.xml",
        book: "GEN",
        bookName: "Gênesis",
        canonical: true,
        chapter: 1,
        verse: 1,
        verseEnd: 1,
        text: "No princípio.",
      },
    ]);
  });

  it("handles multi-byte characters split between buffers", async () => {
    const bytes = Buffer.from(MINIMAL);
    const single = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    const verses = await collect(parseUsfx(chunks(...single), { source: "bytes.xml" }));
    expect(verses[0]!.text).toBe("No princípio.");
    expect(verses[0]!.bookName).toBe("Gênesis");
  });

  it("destroys the input stream on error", async () => {
    const path = await writeTmp("bad-stream.xml", "<usfx><book id=\"GEN\"></usfx>");
    const stream = createReadStream(path);
    const error = await failure(collect(parseUsfx(stream, { source: "bad-stream.xml" })));
    expect(error.code).toBe("xml_malformed");
    expect(stream.destroyed).toBe(true);
  });

  it("destroys the input stream when the consumer stops early", async () => {
    const stream = createReadStream(new URL("../corpus/por-blivre.usfx.xml", import.meta.url), {
      highWaterMark: 64 * 1024,
    });
    let first: Verse | undefined;
    for await (const v of parseUsfx(stream, { source: "por-blivre.usfx.xml" })) {
      first = v;
      break;
    }
    expect(first?.text).toBe("No princípio criou Deus os céus e a terra.");
    expect(stream.destroyed).toBe(true);
  });

  it("lets readUsfxFile stop early without leaking", async () => {
    const iterator = readUsfxFile(new URL("../corpus/por-blivre.usfx.xml", import.meta.url).pathname);
    const first = await iterator.next();
    expect(first.done).toBe(false);
    const end = await iterator.return(undefined);
    expect(end.done).toBe(true);
  });
});

describe("bounds (issue 43): every number and size refused where it enters, with file, line and column", () => {
  /** One book with the given milestone markup in its chapter, on line 3. */
  const withLine3 = (markup: string) => `<usfx>\n<book id="JON"><c id="1"/>\n${markup}\n</book></usfx>\n`;

  it.each([
    ['<c id="400000000"/>', "chapter_out_of_range", 19, 'capítulo "400000000" fora do limite (de 1 a 1.000)'],
    ['<c id="0"/>', "chapter_out_of_range", 11, 'capítulo "0" fora do limite'],
    ['<c id="-3"/>', "chapter_out_of_range", 12, 'capítulo "-3" fora do limite'],
    ['<c id="1001"/>', "chapter_out_of_range", 14, 'capítulo "1001" fora do limite'],
    ['<c id="99999999999999999999999999"/>', "chapter_out_of_range", 36, 'capítulo "99999999999999999999…" fora do limite'],
    ['<v id="1001"/>texto', "verse_out_of_range", 14, 'versículo "1001" fora do limite (de 0 a 1.000)'],
    ['<v id="17-2000000000"/>texto', "bridge_too_long", 23, 'o intervalo de versículos "17-2000000000" passa de 100 versículos'],
    ['<v id="1-101"/>texto', "bridge_too_long", 15, "passa de 100 versículos"],
    ['<v id="950-1010"/>texto', "verse_out_of_range", 18, 'versículo "950-1010" fora do limite'],
  ] as const)("%s → %s at line 3", async (markup, code, column, detail) => {
    const error = await failure(collect(parseUsfx(chunks(withLine3(markup)), { source: "jonas.usfx.xml" })));
    expectError(error, code, "jonas.usfx.xml");
    expect([error.line, error.column]).toEqual([3, column]);
    expect(error.message).toContain(detail);
  });

  it("keeps what is within them: chapter 1000, verse 1000, a bridge of 100, verse 0", async () => {
    const verses = await collect(
      parseUsfx(chunks(withLine3('<v id="0"/>título <c id="1000"/><v id="1000"/>fim <v id="1-100"/>ponte')), { source: "ok.xml" }),
    );
    expect(verses.map((v) => [v.chapter, v.verse, v.verseEnd])).toEqual([
      [1, 0, 0],
      [1000, 1000, 1000],
      [1000, 1, 100],
    ]);
  });

  it("refuses a file of more verses than the limit at the first verse past it, without reading on", async () => {
    let pulled = 0;
    async function* manyVerses(): AsyncGenerator<string> {
      yield '<usfx><book id="PSA"><c id="1"/>\n';
      // 15 million tiny verses, 1,000 a chunk: the parser must stop long before the end.
      for (pulled = 0; pulled < 15_000; pulled++) yield `${'<v id="1"/>a'.repeat(1_000)}\n`;
      yield "</book></usfx>";
    }
    const started = performance.now();
    const error = await failure(collect(parseUsfx(manyVerses(), { source: "muitos.xml" })));
    expectError(error, "too_many_verses", "muitos.xml");
    expect(error.message).toMatch(/^muitos\.xml:102:\d+: USFX grande demais: mais de 100\.000 versículos no arquivo$/);
    expect(pulled).toBe(100);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("refuses a verse, a title, a book code, the file's verse text, the nesting, a pending construct and the file past their limits", async () => {
    const parse = (text: string, limits: Parameters<typeof parseUsfx>[1]["limits"]) => failure(collect(parseUsfx(chunks(text), { source: "grande.xml", limits })));
    const longVerse = await parse(withLine3(`<v id="1"/>${"palavra ".repeat(20)}`), { verseChars: 100 });
    expectError(longVerse, "too_large", "grande.xml");
    expect(longVerse.message).toContain("o versículo JON 1:1 passa de 100 caracteres");
    const longTitle = await parse(`<usfx><book id="JON"><h>${"J".repeat(200)}</h></book></usfx>`, { titleChars: 100 });
    expect(longTitle.message).toContain("um título de livro passa de 100 caracteres");
    const code = await parse(`<usfx><book id="${"J".repeat(2_000)}"></book></usfx>`, {});
    expect(code.code).toBe("not_usfx");
    expect(code.message).toBe('grande.xml:1:2018: USFX inválido: código de livro "JJJJJJJJJJJJJJJJJJJJ…" longo demais (no máximo 16 caracteres)');
    const message = await parse(`<usfx><${"n".repeat(5_000)}></usfx>`, {});
    expect(message.code).toBe("xml_malformed");
    expect(message.message.length).toBeLessThan(400);
    const text = await parse(withLine3(`<v id="1"/>${"a".repeat(60)}<v id="2"/>${"b".repeat(60)}`), { textChars: 100 });
    expect(text.message).toContain("mais de 100 caracteres de texto de versículos no arquivo");
    const deep = await parse(withLine3(`${"<q>".repeat(40)}`), { depth: 32 });
    expect(deep.message).toContain("mais de 32 elementos abertos ao mesmo tempo");
    expect(deep.line).toBe(3);
    const comment = await parse(withLine3(`<!-- ${"<>".repeat(500)} -->`), { pendingChars: 500 });
    expect(comment.message).toContain("mais de 500 caracteres sem completar uma marcação, um texto ou um comentário");
    const attributes = await parse(withLine3(`<v id="1" ${Array.from({ length: 100 }, (_, i) => `a${i}="x"`).join(" ")}/>`), { pendingChars: 500 });
    expect(attributes.code).toBe("too_large");
    const file = await parse(withLine3(`<rem>${"x".repeat(300)}</rem>`.repeat(10)), { fileChars: 1_000 });
    expect(file.message).toContain("o arquivo passa de 1.000 caracteres");
  });

  it("stops a gzip bomb at once: 1 GB of one text run in a 1 MB .gz", async () => {
    // One run of text with no markup, which the XML parser would hold whole; gzip members concatenated (gunzip reads them as one stream).
    const member = gzipSync(Buffer.alloc(1 << 20, "a"), { level: 9 });
    const bomb = Buffer.concat([gzipSync('<usfx><book id="GEN"><c id="1"/><v id="1"/>'), ...Array<Buffer>(1024).fill(member), gzipSync("<ve/></book></usfx>")]);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const path = await writeTmp("bomba.xml.gz", bomb);
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const error = await failure(loadUsfxFile(path));
    expectError(error, "too_large", "bomba.xml");
    expect(error.message).toContain("mais de 1.000.000 caracteres sem completar uma marcação, um texto ou um comentário");
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(50 * 1024 * 1024);
  });
});
