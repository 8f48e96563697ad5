/**
 * Reads the shipped lexicon (resources/lexicon/) from disk; parsing and the index are core's
 * (core/analysis/lexicon.ts).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Lexicon, parseNominalizations, parseWordnetTab } from "../../core/analysis/lexicon.js";
import { findProjectRoot } from "../../project-root.js";

/** File names inside the lexicon folder. */
export const LEXICON_FILES = Object.freeze({
  synsets: "wn-data-por.single-words.tab",
  nominalizations: "nominalizations.tsv",
  extraNominalizations: "nominalizations-extra.tsv",
});

/** Default lexicon folder, relative to the project root. */
export const LEXICON_DIR = "resources/lexicon";

/**
 * Loads the shipped lexicon from `dir` (default: resources/lexicon under the project root):
 * the synset subset, the NomLex-PT pairs and, when present, the project's extra pairs
 * (`extra: false` skips them).
 */
export async function loadLexicon(dir?: string, options: { extra?: boolean } = {}): Promise<Lexicon> {
  return lexiconOf(await readLexiconFiles(dir, options));
}

/** The lexicon's files as text (the extra pairs empty when absent or not wanted). */
export interface LexiconTexts {
  tab: string;
  links: string;
  extra: string;
}

export async function readLexiconFiles(dir?: string, options: { extra?: boolean } = {}): Promise<LexiconTexts> {
  const folder = dir ?? join(findProjectRoot(), LEXICON_DIR);
  const extraPath = join(folder, LEXICON_FILES.extraNominalizations);
  const [tab, links, extra] = await Promise.all([
    readFile(join(folder, LEXICON_FILES.synsets), "utf8"),
    readFile(join(folder, LEXICON_FILES.nominalizations), "utf8"),
    options.extra !== false && existsSync(extraPath) ? readFile(extraPath, "utf8") : Promise.resolve(""),
  ]);
  return { tab, links, extra };
}

export function lexiconOf(texts: LexiconTexts): Lexicon {
  return new Lexicon(parseWordnetTab(texts.tab), [...parseNominalizations(texts.links), ...parseNominalizations(texts.extra)]);
}
