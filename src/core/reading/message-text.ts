/**
 * The one normaliser the message's readers share: the text lowercase, accents folded, chat
 * shorthand spelled out ("vc" → "voce", "pq" → "porque"), punctuation gone, one space between
 * words and one at each end (so a pattern can bound a word with `\s`), and the words with their
 * offsets in the message as typed (to cut a span such as a quoted saying out of it). Pure.
 */
import { foldAccents } from "../analysis/fold.js";
import { CHAT_SHORTHAND } from "../analysis/shorthand.js";

export interface MessageWord {
  /** As typed. */
  text: string;
  /** Lowercase, accents folded, shorthand spelled out (may be two words: "oq" → "o que"). */
  spelled: string;
  start: number;
  end: number;
}

export interface MessageText {
  message: string;
  words: MessageWord[];
  /** The spelled words joined by single spaces, with a space at each end. */
  spelled: string;
  /** Where each word's spelling starts in `spelled`. */
  starts: number[];
}

export function readText(message: string): MessageText {
  const words: MessageWord[] = [];
  for (const match of message.matchAll(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)) {
    const folded = foldAccents(match[0].toLowerCase()).replace(/['’]/g, "");
    words.push({ text: match[0], spelled: CHAT_SHORTHAND[folded] ?? folded, start: match.index, end: match.index + match[0].length });
  }
  const starts: number[] = [];
  let at = 1;
  for (const word of words) {
    starts.push(at);
    at += word.spelled.length + 1;
  }
  return { message, words, spelled: ` ${words.map((word) => word.spelled).join(" ")} `, starts };
}

/** The index of the word whose spelling covers position `at` of `spelled` (the next word's at a space). */
export function wordAt(text: MessageText, at: number): number {
  let index = 0;
  while (index + 1 < text.starts.length && text.starts[index + 1]! <= at) index++;
  return index;
}

/** The message as typed from the spelled position `at` to the end (or to `end`), e.g. what follows a frame. */
export function typedFrom(text: MessageText, at: number, end = text.spelled.length): string {
  if (text.words.length === 0 || at >= text.spelled.length - 1) return "";
  const from = wordAt(text, at);
  const to = wordAt(text, Math.max(at, end - 2)) + 1;
  return spanOf(text, from, to);
}

/** The span of the message as typed from the word at `from` to the word before `to` (word indexes). */
export function spanOf(text: MessageText, from: number, to = text.words.length): string {
  const first = text.words[from];
  const last = text.words[to - 1];
  if (!first || !last || to <= from) return "";
  return text.message.slice(first.start, last.end);
}
