import { findReferences, formatReferences } from "../../../src/core/bible/references";

/**
 * A deliberately small Markdown subset for the model's answers, parsed into plain data that
 * React renders as elements: paragraphs, bullet and numbered lists, headings (shown as bold
 * lines), **bold**, *italic* / _italic_, and Bible references found with the project's own
 * grammar. There is no HTML in it: "<img …>" in a token stays the literal text "<img …>",
 * because text only ever reaches the page as React text nodes.
 */

export type Inline =
  | { type: "text"; text: string }
  | { type: "strong"; children: Inline[] }
  | { type: "em"; children: Inline[] }
  | { type: "ref"; text: string; query: string };

export type Block =
  | { type: "paragraph"; children: Inline[] }
  | { type: "heading"; children: Inline[] }
  | { type: "list"; ordered: boolean; start: number; items: Inline[][] }
  | { type: "quote"; children: Inline[] };

const BULLET = /^\s{0,3}[-*•]\s+(.*)$/u;
const NUMBERED = /^\s{0,3}(\d{1,3})[.)]\s+(.*)$/u;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/u;
const QUOTE = /^\s{0,3}>\s?(.*)$/u;

export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  const lines = source.replace(/\r\n?/gu, "\n").split("\n");
  let paragraph: string[] = [];
  let quote: string[] = [];
  let list: { ordered: boolean; start: number; items: string[] } | undefined;

  const flushParagraph = () => {
    if (paragraph.length > 0) blocks.push({ type: "paragraph", children: parseInline(paragraph.join("\n")) });
    paragraph = [];
  };
  const flushQuote = () => {
    if (quote.length > 0) blocks.push({ type: "quote", children: parseInline(quote.join("\n")) });
    quote = [];
  };
  const flushList = () => {
    if (list) blocks.push({ type: "list", ordered: list.ordered, start: list.start, items: list.items.map((item) => parseInline(item)) });
    list = undefined;
  };
  const flushAll = () => {
    flushParagraph();
    flushQuote();
    flushList();
  };

  for (const line of lines) {
    if (line.trim() === "") {
      flushAll();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flushAll();
      blocks.push({ type: "heading", children: parseInline(heading[1] ?? "") });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (bullet || numbered) {
      const ordered = numbered !== null;
      flushParagraph();
      flushQuote();
      if (!list || list.ordered !== ordered) {
        flushList();
        list = { ordered, start: numbered ? Number(numbered[1]) : 1, items: [] };
      }
      list.items.push(bullet ? (bullet[1] ?? "") : (numbered?.[2] ?? ""));
      continue;
    }
    const quoted = QUOTE.exec(line);
    if (quoted) {
      flushParagraph();
      flushList();
      quote.push(quoted[1] ?? "");
      continue;
    }
    if (list && /^\s{2,}\S/u.test(line)) {
      // An indented continuation line of the last list item.
      list.items[list.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    flushList();
    flushQuote();
    paragraph.push(line);
  }
  flushAll();
  return blocks;
}

/** Emphasis first (so a reference inside **…** is still found), then references in the text leaves. */
export function parseInline(text: string): Inline[] {
  return parseEmphasis(text).flatMap(withReferences);
}

function withReferences(node: Inline): Inline[] {
  if (node.type === "text") return splitReferences(node.text);
  if (node.type === "strong" || node.type === "em") return [{ ...node, children: node.children.flatMap(withReferences) }];
  return [node];
}

/** Text with each Bible reference turned into a `ref` node (query: its canonical form). */
export function splitReferences(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const match of findReferences(text)) {
    if (match.start > last) out.push({ type: "text", text: text.slice(last, match.start) });
    out.push({ type: "ref", text: match.text, query: formatReferences(match.references) });
    last = match.end;
  }
  if (last < text.length) out.push({ type: "text", text: text.slice(last) });
  return out;
}

/**
 * `**x**` / `__x__` bold and `*x*` / `_x_` italic. A delimiter only opens before a non-space
 * and closes after one; `_` must also sit at word boundaries (so snake_case stays as is).
 * Unmatched delimiters are kept as text.
 */
function parseEmphasis(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = "";
  let i = 0;
  const pushPlain = () => {
    if (plain !== "") out.push({ type: "text", text: plain });
    plain = "";
  };
  while (i < text.length) {
    const c = text[i];
    if (c === "*" || c === "_") {
      const double = text[i + 1] === c;
      const delimiter = double ? c + c : c;
      const close = findClosing(text, i, delimiter);
      if (close !== -1) {
        pushPlain();
        const inner = text.slice(i + delimiter.length, close);
        out.push({ type: double ? "strong" : "em", children: parseEmphasis(inner) });
        i = close + delimiter.length;
        continue;
      }
      plain += delimiter;
      i += delimiter.length;
      continue;
    }
    if (c === "\\" && i + 1 < text.length && "*_\\".includes(text[i + 1]!)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    plain += c;
    i += 1;
  }
  pushPlain();
  return out;
}

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{N}]/u.test(c);
}

function findClosing(text: string, open: number, delimiter: string): number {
  const after = text[open + delimiter.length];
  if (after === undefined || /\s/u.test(after)) return -1;
  if (delimiter[0] === "_" && isWordChar(text[open - 1])) return -1;
  let from = open + delimiter.length + 1;
  for (;;) {
    const at = text.indexOf(delimiter, from);
    if (at === -1) return -1;
    const before = text[at - 1];
    const next = text[at + delimiter.length];
    const closesHere =
      before !== undefined &&
      !/\s/u.test(before) &&
      // a single "*" must not be half of a "**"
      (delimiter.length === 2 || (next !== delimiter[0] && text[at - 1] !== delimiter[0])) &&
      (delimiter[0] !== "_" || !isWordChar(next));
    if (closesHere) return at;
    from = at + 1;
  }
}

/** Every reference query in a text, in order, without repeats (for tests and the sources panel). */
export function referenceQueries(text: string): string[] {
  return [...new Set(findReferences(text).map((match) => formatReferences(match.references)))];
}
