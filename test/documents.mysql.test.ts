import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createConnection, type Connection } from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLessonsTable,
  lessonsTableSql,
  MysqlSourceError,
  readMysqlLessons,
  type MysqlSourceOptions,
  type MysqlSourceWarning,
} from "../src/adapters/sources/mysql-source.js";
import { findProjectRoot } from "../src/project-root.js";
import { startMariaDb, type TestMariaDb } from "./support/mariadb.js";
import { freePort } from "./support/net.js";

const META_LESSON = [
  "[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA]",
  "Disciplina: Teologia Sistemática",
  "Título: A Trindade",
  "Keywords: trindade, pericorese, consubstancialidade",
  "====== FIM DOS METADADOS ======",
  "",
  "# A Trindade",
  "",
  "Um só Deus em três pessoas: Pai, Filho e Espírito Santo (Mt 28:19).",
].join("\n");
const GRACE_LESSON = "Pela graça sois salvos, por meio da fé; e isto não vem de vós, é dom de Deus (Ef 2:8). Oração: 🙏 ção ã é ü «»";
const EXODUS_LESSON = "A saída do Egito: Moisés, as dez pragas e a Páscoa.";
const SERMON_LESSON = "Bem-aventurados os humildes de espírito. ".repeat(125); // 5,125 characters

/** [discipline, slug, title, content] */
const LESSONS: [string, string, string, string | null][] = [
  ["Teologia Sistemática", "trindade", "A Trindade", META_LESSON],
  ["Teologia Sistemática", "graça", "Graça e fé", GRACE_LESSON],
  ["Antigo Testamento", "genesis-1", "Criação", null],
  ["Novo Testamento", "sermao-do-monte", "Sermão do Monte", SERMON_LESSON],
  ["Antigo Testamento", "exodo", "Êxodo", EXODUS_LESSON],
];
const ORDERED_IDS = [
  "db:Antigo Testamento/exodo",
  "db:Antigo Testamento/genesis-1",
  "db:Novo Testamento/sermao-do-monte",
  "db:Teologia Sistemática/graça",
  "db:Teologia Sistemática/trindade",
];

let db: TestMariaDb;
let conn: Connection;

function source(extra: Partial<MysqlSourceOptions> = {}): MysqlSourceOptions {
  return { url: db.url, collection: "curso", ...extra };
}

function urlWith(parts: { password?: string; port?: number }): string {
  const password = encodeURIComponent(parts.password ?? db.password);
  return `mysql://${db.user}:${password}@${db.host}:${parts.port ?? db.port}/${db.database}`;
}


async function rejection(promise: Promise<unknown>): Promise<MysqlSourceError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(MysqlSourceError);
  return error as MysqlSourceError;
}

beforeAll(async () => {
  db = await startMariaDb();
  console.log(`MariaDB privado pronto em ${db.startMs} ms (porta ${db.port})`);
  conn = await createConnection({
    host: db.host,
    port: db.port,
    user: db.user,
    password: db.password,
    database: db.database,
    charset: "UTF8MB4_UNICODE_CI",
  });
  await createLessonsTable(conn);
  await conn.query("INSERT INTO lessons (discipline, slug, title, content) VALUES ?", [LESSONS]);
}, 120_000);

afterAll(async () => {
  await conn?.end();
  await db?.stop();
});

describe("readMysqlLessons", () => {
  it("reads one document per row, ordered by discipline then slug", async () => {
    const warnings: MysqlSourceWarning[] = [];
    const documents = await readMysqlLessons(source(), { onWarning: (w) => warnings.push(w) });
    expect(documents.map((d) => d.sourceId)).toEqual(ORDERED_IDS);
    expect(warnings).toEqual([]);
    for (const document of documents) {
      expect(document.collection).toBe("curso");
      expect(document.sourceId).toBe(`db:${document.discipline}/${document.slug}`);
      expect(document.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(document.pages).toBeUndefined();
    }
    expect(documents.find((d) => d.slug === "exodo")).toEqual({
      collection: "curso",
      discipline: "Antigo Testamento",
      slug: "exodo",
      sourceId: "db:Antigo Testamento/exodo",
      title: "Êxodo",
      content: EXODUS_LESSON,
      sha256: documents.find((d) => d.slug === "exodo")!.sha256,
    });
  });

  it("keeps accents, emoji and the metadata block intact (utf8mb4 end to end), NULL content as empty", async () => {
    const documents = await readMysqlLessons(source());
    const bySlug = new Map(documents.map((d) => [d.slug, d]));
    expect(bySlug.get("graça")?.content).toBe(GRACE_LESSON);
    expect(bySlug.get("graça")?.title).toBe("Graça e fé");
    expect(bySlug.get("graça")?.discipline).toBe("Teologia Sistemática");
    expect(bySlug.get("trindade")?.content).toBe(META_LESSON);
    expect(bySlug.get("genesis-1")?.content).toBe("");
    expect(bySlug.get("genesis-1")?.title).toBe("Criação");
    expect(bySlug.get("sermao-do-monte")?.content).toBe(SERMON_LESSON);
    // The server stored real 4-byte characters, not "?" replacements.
    const [rows] = await conn.query("SELECT CHAR_LENGTH(content) AS n, LENGTH(content) AS bytes FROM lessons WHERE slug = 'graça'");
    const [row] = rows as { n: number; bytes: number }[];
    expect(row).toEqual({ n: [...GRACE_LESSON].length, bytes: Buffer.byteLength(GRACE_LESSON) });
  });

  it("gives stable hashes, and an UPDATE changes only that row's hash (content or title)", async () => {
    const hashes = async () => new Map((await readMysqlLessons(source())).map((d) => [d.sourceId, d.sha256]));
    const first = await hashes();
    const second = await hashes();
    expect(second).toEqual(first);
    expect(new Set(first.values()).size).toBe(first.size);

    try {
      await conn.query("UPDATE lessons SET content = ? WHERE discipline = ? AND slug = ?", [
        `${EXODUS_LESSON} E o mar se abriu.`,
        "Antigo Testamento",
        "exodo",
      ]);
      const afterContent = await hashes();
      for (const id of ORDERED_IDS) {
        if (id === "db:Antigo Testamento/exodo") expect(afterContent.get(id)).not.toBe(first.get(id));
        else expect(afterContent.get(id)).toBe(first.get(id));
      }

      await conn.query("UPDATE lessons SET content = ? WHERE slug = 'exodo'", [EXODUS_LESSON]);
      expect((await hashes()).get("db:Antigo Testamento/exodo")).toBe(first.get("db:Antigo Testamento/exodo"));

      await conn.query("UPDATE lessons SET title = 'Gênesis 1' WHERE slug = 'genesis-1'");
      const afterTitle = await hashes();
      for (const id of ORDERED_IDS) {
        if (id === "db:Antigo Testamento/genesis-1") expect(afterTitle.get(id)).not.toBe(first.get(id));
        else expect(afterTitle.get(id)).toBe(first.get(id));
      }
    } finally {
      await conn.query("UPDATE lessons SET content = ? WHERE slug = 'exodo'", [EXODUS_LESSON]);
      await conn.query("UPDATE lessons SET title = 'Criação' WHERE slug = 'genesis-1'");
    }
  });

  it("skips a content longer than maxContentChars with a document_too_large warning", async () => {
    const warnings: MysqlSourceWarning[] = [];
    const documents = await readMysqlLessons(source(), { maxContentChars: 1000, onWarning: (w) => warnings.push(w) });
    expect(documents.map((d) => d.sourceId)).toEqual(ORDERED_IDS.filter((id) => id !== "db:Novo Testamento/sermao-do-monte"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: "document_too_large", sourceId: "db:Novo Testamento/sermao-do-monte" });
    expect(warnings[0]!.message).toContain("db:Novo Testamento/sermao-do-monte");
    expect(warnings[0]!.message).toMatch(/grande demais/);
  });

  it("warns about duplicate (discipline, slug) rows and keeps one, and skips rows without discipline or slug", async () => {
    await conn.query(
      "CREATE TABLE lessons_dup (id INT AUTO_INCREMENT PRIMARY KEY, discipline VARCHAR(120), slug VARCHAR(190), title VARCHAR(300), content LONGTEXT) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci",
    );
    await conn.query("INSERT INTO lessons_dup (discipline, slug, title, content) VALUES ?", [
      [
        ["Salmos", "salmo-23", "Primeira", "O Senhor é o meu pastor."],
        ["Salmos", "salmo-23", "Segunda", "Nada me faltará."],
        ["Salmos", "salmo-23 ", "Terceira", "Espaço no fim do slug."],
        ["Salmos", "salmo-1", "Salmo 1", "Bem-aventurado o homem."],
        ["Salmos", "", "Sem slug", "Linha inválida."],
        [null, "sem-disciplina", "Sem disciplina", "Linha inválida."],
      ],
    ]);
    const warnings: MysqlSourceWarning[] = [];
    const documents = await readMysqlLessons(source({ table: "lessons_dup" }), { onWarning: (w) => warnings.push(w) });
    expect(documents.map((d) => d.sourceId)).toEqual(["db:Salmos/salmo-1", "db:Salmos/salmo-23"]);
    expect(["Primeira", "Segunda", "Terceira"]).toContain(documents[1]!.title);
    const byCode = (code: string) => warnings.filter((w) => w.code === code);
    expect(byCode("duplicate_document").map((w) => w.sourceId)).toEqual(["db:Salmos/salmo-23", "db:Salmos/salmo-23"]);
    expect(byCode("duplicate_document")[0]!.message).toContain("db:Salmos/salmo-23");
    expect(byCode("row_invalid").map((w) => w.sourceId).sort()).toEqual(["db:/sem-disciplina", "db:Salmos/"]);
    expect(warnings).toHaveLength(4);
  });

  it("reads a table with configured names, created by createLessonsTable from a URL", async () => {
    const columns = { discipline: "disciplina", slug: "apelido", title: "titulo", content: "texto", updatedAt: "alterado_em" };
    await createLessonsTable(db.url, "aulas", columns);
    await createLessonsTable(db.url, "aulas", columns); // IF NOT EXISTS: idempotent
    await conn.query("INSERT INTO aulas (disciplina, apelido, titulo, texto) VALUES ('Cartas', 'romanos-8', 'Romanos 8', 'Nenhuma condenação há.')");
    const documents = await readMysqlLessons(source({ table: "aulas", columns, collection: "cartas" }));
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({
      collection: "cartas",
      sourceId: "db:Cartas/romanos-8",
      title: "Romanos 8",
      content: "Nenhuma condenação há.",
    });
    const [rows] = await conn.query("SHOW COLUMNS FROM aulas");
    expect((rows as { Field: string }[]).map((r) => r.Field)).toEqual(["id", "disciplina", "apelido", "titulo", "texto", "alterado_em"]);
  });

  it("keeps docs/mysql-lessons.sql equal to lessonsTableSql()", async () => {
    const docs = await readFile(join(findProjectRoot(), "docs/mysql-lessons.sql"), "utf8");
    const statement = docs
      .split("\n")
      .filter((line) => !line.startsWith("--"))
      .join("\n")
      .trim();
    expect(statement).toBe(`${lessonsTableSql()};`);
  });
});

describe("readMysqlLessons errors", () => {
  it("wrong password → mysql_auth, and the message never holds a password", async () => {
    const wrong = "senha-errada-Secreta-123";
    const error = await rejection(readMysqlLessons(source({ url: urlWith({ password: wrong }) })));
    expect(error.code).toBe("mysql_auth");
    expect(error.message).toContain(`${db.host}:${db.port}`);
    expect(error.message).toMatch(/Acesso negado/);
    for (const text of [error.message, String(error.stack), error.target]) {
      expect(text).not.toContain(wrong);
      expect(text).not.toContain(encodeURIComponent(wrong));
      expect(text).not.toContain(db.password);
    }
  });

  it("wrong port → mysql_unreachable, quickly", async () => {
    const port = await freePort();
    const started = performance.now();
    const error = await rejection(readMysqlLessons(source({ url: urlWith({ port }), connectTimeoutMs: 1500 })));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(error.code).toBe("mysql_unreachable");
    expect(error.message).toContain(`${db.host}:${port}`);
    expect(error.message).not.toContain(db.password);
  });

  it("missing table → mysql_table_missing naming the table and the server", async () => {
    const error = await rejection(readMysqlLessons(source({ table: "licoes_que_nao_existem" })));
    expect(error.code).toBe("mysql_table_missing");
    expect(error.message).toContain("licoes_que_nao_existem");
    expect(error.message).toContain(`${db.host}:${db.port}`);
    expect(error.message).not.toContain(db.password);
  });

  it("unknown column → mysql_query_failed", async () => {
    const error = await rejection(readMysqlLessons(source({ columns: { content: "conteudo" } })));
    expect(error.code).toBe("mysql_query_failed");
    expect(error.message).toContain("conteudo");
    expect(error.message).not.toContain(db.password);
  });

  it("refuses unsafe table or column names before any connection or query", async () => {
    // An unreachable server: had the reader tried to connect, the error would be mysql_unreachable.
    const nowhere = urlWith({ port: await freePort() });
    const table = await rejection(readMysqlLessons(source({ url: nowhere, table: "x; DROP TABLE lessons" })));
    expect(table.code).toBe("mysql_invalid_config");
    expect(table.message).toContain("x; DROP TABLE lessons");
    const column = await rejection(readMysqlLessons(source({ url: nowhere, columns: { slug: "slug`, (SELECT 1) AS `x" } })));
    expect(column.code).toBe("mysql_invalid_config");
    for (const name of ["lessons`", "1lessons", "lições", "a".repeat(65), ""]) {
      expect((await rejection(readMysqlLessons(source({ url: nowhere, table: name })))).code).toBe("mysql_invalid_config");
    }
    expect(() => lessonsTableSql("x; DROP TABLE lessons")).toThrow(MysqlSourceError);
    const [rows] = await conn.query("SELECT COUNT(*) AS n FROM lessons");
    expect((rows as { n: number }[])[0]!.n).toBe(LESSONS.length);
  });

  it("refuses a malformed URL without repeating it", async () => {
    for (const url of ["não é url", "postgres://pastor:segredo@127.0.0.1/db", "mysql://pastor:segredo@127.0.0.1:3306/"]) {
      const error = await rejection(readMysqlLessons(source({ url })));
      expect(error.code).toBe("mysql_invalid_config");
      expect(error.message).not.toContain("segredo");
    }
  });
});

describe("readMysqlLessons timing", () => {
  it("reads 1,000 generated rows (round trip printed for the closing note)", async () => {
    await createLessonsTable(conn, "lessons_bulk");
    const body = "Palavra de Deus, lâmpada para os meus pés e luz para o meu caminho (Sl 119:105). ".repeat(12);
    const rows = Array.from({ length: 1000 }, (_, i) => [
      `Disciplina ${String(i % 10).padStart(2, "0")}`,
      `aula-${String(i).padStart(4, "0")}`,
      `Aula ${i + 1}`,
      `${body}#${i}`,
    ]);
    await conn.query("INSERT INTO lessons_bulk (discipline, slug, title, content) VALUES ?", [rows]);

    const timings: number[] = [];
    let count = 0;
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      count = (await readMysqlLessons(source({ table: "lessons_bulk" }))).length;
      timings.push(performance.now() - started);
    }
    expect(count).toBe(1000);
    const sorted = [...timings].sort((a, b) => a - b);
    console.log(
      `readMysqlLessons: 1.000 linhas (~${Buffer.byteLength(rows[0]![3]!)} bytes de conteúdo cada) — ` +
        `1ª leitura ${timings[0]!.toFixed(1)} ms, mediana de 5 ${sorted[2]!.toFixed(1)} ms (conexão + consulta + hash)`,
    );
  });
});
