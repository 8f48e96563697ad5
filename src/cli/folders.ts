import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { listCorpusFiles } from "../app/index/indexer.js";
import { SettingsError } from "../config/settings.js";

/**
 * The folders a command needs, checked before it starts: a CORPUS_DIR that is missing, not a
 * folder or without USFX files, and a DATA_DIR that cannot be created or written, stop the
 * command with a message naming the variable and the folder (a configuration error).
 */

function shown(value: string): string {
  const absolute = path.resolve(value);
  return absolute === value ? JSON.stringify(value) : `${JSON.stringify(value)} (${absolute})`;
}

/** The USFX files of CORPUS_DIR; throws SettingsError when there are none to read. */
export async function requireCorpusFiles(corpusDir: string): Promise<string[]> {
  const folder = path.resolve(corpusDir);
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    throw new SettingsError("CORPUS_DIR", `= ${shown(corpusDir)}: a pasta não existe`);
  }
  if (!isFolder) throw new SettingsError("CORPUS_DIR", `= ${shown(corpusDir)}: não é uma pasta`);
  const files = await listCorpusFiles(folder);
  if (files.length === 0) throw new SettingsError("CORPUS_DIR", `= ${shown(corpusDir)}: a pasta não tem arquivos USFX (*.xml, *.xml.gz)`);
  return files;
}

/** Creates DATA_DIR if needed; throws SettingsError when it cannot be created or written. */
export function requireWritableDataDir(dataDir: string): void {
  const folder = path.resolve(dataDir);
  try {
    mkdirSync(folder, { recursive: true });
    if (!statSync(folder).isDirectory()) throw Object.assign(new Error(), { code: "ENOTDIR" });
    accessSync(folder, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOTDIR" || code === "EEXIST" ? "não é uma pasta (ou fica dentro de um arquivo)" : `sem permissão de escrita (${code ?? "erro"})`;
    throw new SettingsError("DATA_DIR", `= ${shown(dataDir)}: não é possível gravar o índice aqui: ${why}`);
  }
}
