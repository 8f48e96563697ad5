import { existsSync } from "node:fs";
import { loadVerses } from "../adapters/index/bible-units.js";
import path from "node:path";
import type { UnitStore } from "../adapters/index/store.js";
import { PRIMARY_SOURCE } from "../app/retrieval/load-engine.js";
import { storeConfig } from "../app/runtime.js";
import type { Settings } from "../config/settings.js";
import { bookByCode } from "../core/bible/books.js";
import { withinVerseBounds } from "../core/bible/bounds.js";
import { UsfxError } from "../core/sources/usfx.js";
import { buildVersification, expandReference, validateReference, type BibleReference } from "../core/bible/references.js";
import { loadUsfxFile, usfxSourceName } from "../adapters/sources/usfx-file.js";
import { printable } from "../core/printable.js";
import type { Verse } from "../core/types.js";
import { InputError } from "./errors.js";
import { requireCorpusFiles } from "./folders.js";
import { compareWithCorpus } from "./index-state.js";
import { openCliStore } from "./store.js";

export interface VerseLine {
  ref: string;
  reference: string;
  text: string;
}

/** What `pastor verses` read, and the corpus file it could not read when it read the index's copy instead. */
export interface PrimaryVerses {
  verses: Verse[];
  failed?: UsfxError;
}

/**
 * The verses `pastor verses` reads, from one translation (the Bíblia Livre when the corpus has
 * it): from the index when the index holds that file as it is now, else straight from the file
 * (parsing one file takes well under a second, so a fresh clone needs no index to read a
 * verse), with a notice on stderr. A changed file that cannot be read (a broken edit: a
 * chapter of 400,000,000, malformed XML) is named with its line and column on stderr, and the
 * index's copy of it, the last version indexed whole, is read instead (`failed`: the caller
 * exits 1 after answering); with no such copy the error stops the command (an InputError
 * naming file, line and column). Without a corpus folder, an existing index is read as it is.
 */
export async function readPrimaryVerses(settings: Settings): Promise<PrimaryVerses> {
  const store = await openExistingStore(settings);
  try {
    const indexed = store !== undefined && (await store.unitCount()) > 0;
    const files = await requireCorpusFiles(settings.CORPUS_DIR).catch((error: unknown) => {
      if (indexed) return undefined;
      throw error;
    });
    if (!files) return { verses: primaryOf(await storedVerses(store!)) };
    const comparison = indexed ? await compareWithCorpus(store!, files) : undefined;
    const file = files.find((f) => usfxSourceName(f) === PRIMARY_SOURCE) ?? comparison?.fresh[0] ?? files[0]!;
    const fromIndex = async () => (await storedVerses(store!)).filter((verse) => verse.source === usfxSourceName(file));
    if (comparison?.fresh.includes(file)) return { verses: await fromIndex() };
    const stale = comparison?.stale.find((entry) => entry.file === file);
    const shown = path.relative(process.cwd(), file) || file;
    const why = stale === undefined ? "o índice está vazio" : `o índice está desatualizado (${stale.reason})`;
    let verses: Verse[];
    try {
      verses = await loadUsfxFile(file);
    } catch (error) {
      if (!(error instanceof UsfxError)) throw error;
      if (!stale?.indexed) throw new InputError(printable(error.message));
      console.error(`erro: ${printable(error.message)}`);
      console.error(printable(`aviso: ${why}, e ${shown} não pôde ser lido: versículos lidos do índice (a última versão indexada por inteiro).`));
      return { verses: await fromIndex(), failed: error };
    }
    console.error(printable(`aviso: ${why}: versículos lidos direto de ${shown}.`));
    return { verses };
  } finally {
    await store?.close();
  }
}

/** The index's verses, without any beyond the bounds (only an index built before the parser refused them can hold one). */
async function storedVerses(store: UnitStore): Promise<Verse[]> {
  return (await loadVerses(store)).filter(withinVerseBounds);
}

/** The store, unless it is a SQLite file that does not exist yet (reading a verse creates nothing). */
async function openExistingStore(settings: Settings): Promise<UnitStore | undefined> {
  const config = storeConfig(settings);
  if (config.kind === "sqlite" && !existsSync(config.dataDir)) return undefined;
  return openCliStore(settings);
}

/** The verses of the index's primary translation (the one `pastor search` answers references from). */
function primaryOf(verses: Verse[]): Verse[] {
  const sources = new Set(verses.map((verse) => verse.source));
  const primary = sources.has(PRIMARY_SOURCE) ? PRIMARY_SOURCE : verses[0]?.source;
  return verses.filter((verse) => verse.source === primary);
}

/**
 * The verses of parsed references among one translation's verses, in reading order (empty
 * verses left out). A span the translation does not have is an InputError with its message
 * ("João não tem capítulo 30 …").
 */
export function lookupVerses(references: readonly BibleReference[], verses: readonly Verse[]): VerseLine[] {
  const versification = buildVersification(verses);
  const byCoordinate = new Map(verses.map((verse) => [`${verse.book} ${verse.chapter}:${verse.verse}`, verse]));
  const lines: VerseLine[] = [];
  const seen = new Set<Verse>();
  for (const reference of references) {
    const validity = validateReference(reference, versification);
    if (!validity.ok) throw new InputError(validity.message);
    for (const { book, chapter, verse } of expandReference(reference, versification)) {
      const found = byCoordinate.get(`${book} ${chapter}:${verse}`);
      if (!found || found.text === "" || seen.has(found)) continue;
      seen.add(found);
      const range = found.verseEnd > found.verse ? `${found.verse}-${found.verseEnd}` : String(found.verse);
      const name = bookByCode(found.book)?.name ?? found.bookName;
      lines.push({ ref: `${found.book} ${found.chapter}:${range}`, reference: `${name} ${found.chapter}:${range}`, text: found.text });
    }
  }
  return lines;
}
