/**
 * Generated lessons for timing collections (the 1,000-lesson test and `npm run bench`):
 * deterministic, five disciplines each with its own vocabulary plus common words, and a
 * metadata block naming the discipline, a title and one keyword.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { mulberry32 } from "../../src/core/index/linalg.js";

export const META_HEADER = "[CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA]";
export const META_END = "====== FIM DOS METADADOS ======";

/** A small Portuguese vocabulary per discipline, plus common words: enough structure for LSA. */
export const LESSON_TOPICS: Record<string, string[]> = {
  teologia: ["trindade", "pai", "filho", "espírito", "essência", "pessoa", "divindade", "atributo", "eternidade", "soberania", "providência", "criação"],
  hermeneutica: ["texto", "contexto", "gênero", "autor", "leitor", "interpretação", "significado", "aplicação", "parábola", "alegoria", "profecia", "poesia"],
  historia: ["concílio", "reforma", "lutero", "calvino", "agostinho", "nicéia", "credo", "mosteiro", "missão", "império", "perseguição", "mártir"],
  pastoral: ["aconselhamento", "família", "casamento", "luto", "visita", "cuidado", "ovelha", "pastor", "comunidade", "discipulado", "culto", "sacramento"],
  missoes: ["evangelho", "nações", "cultura", "tradução", "povo", "fronteira", "envio", "testemunho", "plantação", "língua", "viagem", "chamado"],
};
const COMMON = ["deus", "graça", "fé", "igreja", "cristo", "palavra", "vida", "amor", "verdade", "reino", "oração", "bíblia", "senhor", "povo", "salvação"];

export const LESSON_QUERIES = [
  "trindade e essência de deus",
  "interpretação do contexto",
  "concílio de nicéia",
  "aconselhamento no luto",
  "tradução para outras línguas",
];

export interface GeneratedLesson {
  discipline: string;
  slug: string;
  title: string;
  /** Relative path inside a collection folder. */
  path: string;
  content: string;
}

export function generatedLesson(i: number, words = 400): GeneratedLesson {
  const disciplines = Object.keys(LESSON_TOPICS);
  const discipline = disciplines[i % disciplines.length]!;
  const random = mulberry32(1000 + i);
  const topic = LESSON_TOPICS[discipline]!;
  const body: string[] = [];
  for (let w = 0; w < words; w++) {
    const pool = random() < 0.45 ? topic : COMMON;
    body.push(pool[Math.floor(random() * pool.length)]!);
  }
  const title = `Aula ${i + 1} de ${discipline}`;
  const slug = `aula-${String(i + 1).padStart(4, "0")}`;
  const content = `${META_HEADER}\nDisciplina: ${discipline}\nTítulo: ${title}\nKeywords: ${topic[i % topic.length]}\n${META_END}\n\n${body.join(" ")}\n`;
  return { discipline, slug, title, path: join(discipline, `${slug}.md`), content };
}

/** Writes `count` generated lessons under `dir` (one sub-folder per discipline). */
export async function writeGeneratedLessons(dir: string, count: number, words = 400): Promise<void> {
  for (const discipline of Object.keys(LESSON_TOPICS)) await mkdir(join(dir, discipline), { recursive: true });
  for (let i = 0; i < count; i++) {
    const lesson = generatedLesson(i, words);
    await writeFile(join(dir, lesson.path), lesson.content);
  }
}
