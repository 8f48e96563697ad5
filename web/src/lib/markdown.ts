import { type BibleReference, findReferences, formatReferences } from "../../../src/core/bible/references";

/**
 * A deliberately small Markdown subset for the model's answers, parsed into plain data that
 * React renders as elements: paragraphs, bullet and numbered lists, headings (shown as bold
 * lines), **bold**, *italic* / _italic_, and Bible references found with the project's own
 * grammar, and document citations in square brackets ("[A Trindade (teologia/a-trindade.md,
 * trecho 1)]") when they name an excerpt the answer was given. There is no HTML in it: "<img …>" in a token stays the literal text "<img …>",
 * because text only ever reaches the page as React text nodes.
 */

export type Inline =
  | { type: "text"; text: string }
  | { type: "strong"; children: Inline[] }
  | { type: "em"; children: Inline[] }
  | { type: "ref"; text: string; query: string }
  | { type: "doc"; citation: string };

export type Block =
  | { type: "paragraph"; children: Inline[] }
  | { type: "heading"; children: Inline[] }
  | { type: "list"; ordered: boolean; start: number; items: Inline[][] }
  | { type: "quote"; children: Inline[] };

const BULLET = /^\s{0,3}[-*•]\s+(.*)$/u;
const NUMBERED = /^\s{0,3}(\d{1,3})[.)]\s+(.*)$/u;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/u;
const QUOTE = /^\s{0,3}>\s?(.*)$/u;

export interface MarkdownOptions {
  /**
   * The human citations of the document excerpts consulted for this answer. A bracket whose
   * content is one of them, or several joined by "; ", becomes `doc` nodes; other brackets
   * stay text.
   */
  documentCitations?: readonly string[];
  /**
   * Whether a Bible reference found in the text was checked by the server (a `ref` node, shown
   * as a checked chip); one that was not stays plain text. All of them when absent.
   */
  checkedReference?: (references: readonly BibleReference[]) => boolean;
}

export function parseMarkdown(source: string, options: MarkdownOptions = {}): Block[] {
  const citations = new Set(options.documentCitations ?? []);
  const checked = options.checkedReference ?? ALL_CHECKED;
  const blocks: Block[] = [];
  const lines = source.replace(/\r\n?/gu, "\n").split("\n");
  let paragraph: string[] = [];
  let quote: string[] = [];
  let list: { ordered: boolean; start: number; items: string[] } | undefined;

  const flushParagraph = () => {
    if (paragraph.length > 0) blocks.push({ type: "paragraph", children: parseInline(paragraph.join("\n"), citations, checked) });
    paragraph = [];
  };
  const flushQuote = () => {
    if (quote.length > 0) blocks.push({ type: "quote", children: parseInline(quote.join("\n"), citations, checked) });
    quote = [];
  };
  const flushList = () => {
    if (list) blocks.push({ type: "list", ordered: list.ordered, start: list.start, items: list.items.map((item) => parseInline(item, citations, checked)) });
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
      blocks.push({ type: "heading", children: parseInline(heading[1] ?? "", citations, checked) });
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

/**
 * Document citations first (each known bracket becomes a placeholder, so neither emphasis nor
 * the Bible reference grammar looks inside it), then emphasis (so a reference inside **…** is
 * still found), then references and the citations back in the text leaves.
 */
const ALL_CHECKED = (): boolean => true;

export function parseInline(
  text: string,
  documentCitations: ReadonlySet<string> = new Set(),
  checked: (references: readonly BibleReference[]) => boolean = ALL_CHECKED,
): Inline[] {
  const found: string[][] = [];
  const masked =
    documentCitations.size === 0
      ? text
      : text.replace(DOC_BRACKET, (whole, inner: string) => {
          const cited = matchDocumentCitations(inner, documentCitations);
          if (!cited) return whole;
          found.push(cited);
          return `${PLACEHOLDER_OPEN}${found.length - 1}${PLACEHOLDER_CLOSE}`;
        });
  const withReferences = (node: Inline): Inline[] => {
    if (node.type === "text") return found.length === 0 ? splitReferences(node.text, checked) : splitPlaceholders(node.text, found, checked);
    if (node.type === "strong" || node.type === "em") return [{ ...node, children: node.children.flatMap(withReferences) }];
    return [node];
  };
  return parseEmphasis(masked).flatMap(withReferences);
}

/** A bracket on one line, as the server writes a checked document citation. */
const DOC_BRACKET = /\[([^[\]\n]{1,600})\]/gu;
const PLACEHOLDER_OPEN = "\uE000";
const PLACEHOLDER_CLOSE = "\uE001";
const PLACEHOLDER = /\uE000(\d+)\uE001/gu;

/** The citations a bracket's content names ("X" or "X; Y"), when every one of them is known. */
function matchDocumentCitations(inner: string, known: ReadonlySet<string>): string[] | undefined {
  const whole = inner.trim();
  if (known.has(whole)) return [whole];
  const parts = whole.split(/\s*;\s*/u);
  return parts.length > 1 && parts.every((part) => known.has(part)) ? parts : undefined;
}

function splitPlaceholders(text: string, found: readonly string[][], checked: (references: readonly BibleReference[]) => boolean): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const cited = found[Number(match[1])];
    if (!cited) continue;
    if (match.index > last) out.push(...splitReferences(text.slice(last, match.index), checked));
    for (const citation of cited) out.push({ type: "doc", citation });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push(...splitReferences(text.slice(last), checked));
  return out;
}

/**
 * Text with each Bible reference the server checked turned into a `ref` node (query: its
 * canonical form); an unchecked one stays text.
 */
export function splitReferences(text: string, checked: (references: readonly BibleReference[]) => boolean = ALL_CHECKED): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const match of findReferences(text)) {
    if (!checked(match.references)) continue;
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
