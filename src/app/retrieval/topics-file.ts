/**
 * Reads the topical index (resources/topics/topics.jsonl) and the story index, in the same format
 * (resources/stories/stories.jsonl), from disk; parsing and matching are core's
 * (core/retrieval/topical-index.ts).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { storyTerms } from "../../core/reading/frames.js";
import { parseTopicsFile, TopicalIndex } from "../../core/retrieval/topical-index.js";
import { findProjectRoot } from "../../project-root.js";

/** Path of the shipped file, relative to the project root. */
export const TOPICS_FILE = "resources/topics/topics.jsonl";

/** Path of the shipped story index, relative to the project root. */
export const STORIES_FILE = "resources/stories/stories.jsonl";

/** Loads and indexes the topics (default: the shipped file); a malformed line throws naming the file and line. */
export async function loadTopics(path?: string): Promise<TopicalIndex> {
  const file = path ?? join(findProjectRoot(), TOPICS_FILE);
  return new TopicalIndex(parseTopicsFile(await readFile(file, "utf8"), file));
}

/** Loads and indexes the Bible episodes (default: the shipped file) as the topics are, without the words that only ask for a story. */
export async function loadStories(path?: string): Promise<TopicalIndex> {
  const file = path ?? join(findProjectRoot(), STORIES_FILE);
  return new TopicalIndex(parseTopicsFile(await readFile(file, "utf8"), file), storyTerms);
}
