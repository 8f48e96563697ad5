/**
 * Reads the topical index from disk (resources/topics/topics.jsonl); parsing and matching are
 * core's (core/retrieval/topical-index.ts).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseTopicsFile, TopicalIndex } from "../../core/retrieval/topical-index.js";
import { findProjectRoot } from "../../project-root.js";

/** Path of the shipped file, relative to the project root. */
export const TOPICS_FILE = "resources/topics/topics.jsonl";

/** Loads and indexes the topics (default: the shipped file); a malformed line throws naming the file and line. */
export async function loadTopics(path?: string): Promise<TopicalIndex> {
  const file = path ?? join(findProjectRoot(), TOPICS_FILE);
  return new TopicalIndex(parseTopicsFile(await readFile(file, "utf8"), file));
}
