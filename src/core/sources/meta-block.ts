/**
 * The metadata block of a lesson: an optional header, `Name: value` lines and an end marker,
 * followed by the markdown body.
 *
 * ```
 * [CONCEITOS E KEYWORDS DA AULA PARA INDEXAÇÃO LÉXICA]
 * Disciplina: Teologia Sistemática
 * Título: A Trindade
 * Keywords: trindade, pericorese
 * ====== FIM DOS METADADOS ======
 *
 * {markdown body}
 * ```
 *
 * Pure: no I/O, no logging (the caller logs `problem`).
 */
import { foldAccents } from "../analysis/fold.js";
import type { LessonMetadata, MetaBlockProblemCode, SplitDocument } from "../documents/types.js";

/** Longest metadata block read as one, in characters (a real block holds a few hundred). */
export const MAX_META_BLOCK_CHARS = 8000;

/** The header, accents folded, upper-cased, whitespace collapsed, without its brackets. */
const HEADER_TEXT = "CONCEITOS E KEYWORDS DA AULA PARA INDEXACAO LEXICA";

/** The end marker: at least 3 `=` on each side (accents folded, case-insensitive). */
const END_MARKER = /^={3,}\s*FIM\s+DOS\s+METADADOS\s*={3,}$/i;

/**
 * A field line: not indented, a name made of letters (spaces, `-`, `_`, `/`, `.` and `'`
 * allowed inside, no digits, at most 40 characters), a colon not followed by `//`, then the
 * value. The digit rule keeps "João 3:16 ..." and the `//` rule keeps URLs from being read as
 * fields.
 */
const FIELD_LINE = /^(\p{L}[\p{L} _\-/.']{0,39}?)\s*:(?!\/\/)(.*)$/u;

/** Folded, lower-cased field name → the LessonMetadata property it fills. */
const KNOWN_FIELDS: ReadonlyMap<string, keyof Omit<LessonMetadata, "fields">> = new Map([
  ["disciplina", "discipline"],
  ["titulo", "title"],
  ["titulo da aula", "title"],
  ["conceitos", "concepts"],
  ["conceitos chave", "concepts"],
  ["keywords", "keywords"],
  ["keyword", "keywords"],
  ["key words", "keywords"],
  ["palavras chave", "keywords"],
  ["palavras chaves", "keywords"],
  ["objetivos", "objectives"],
  ["objetivo", "objectives"],
  ["objetivos da aula", "objectives"],
]);

function normalizeName(name: string): string {
  return foldAccents(name)
    .toLowerCase()
    .replace(/[\s_-]+/g, " ")
    .trim();
}

/**
 * Whether a line is too long to be a marker: a marker has at most a few dozen characters
 * besides its whitespace, and folding a 4-million-character line of a lesson, once per line
 * scanned, would cost seconds for nothing.
 */
function tooLongForMarker(line: string): boolean {
  return line.length > 256 && line.replace(/\s+/g, "").length > 256;
}

function isHeaderLine(line: string): boolean {
  if (tooLongForMarker(line)) return false;
  const folded = foldAccents(line).toUpperCase().replace(/\s+/g, " ").trim();
  const inner = folded.replace(/^\[\s*/, "").replace(/\s*\]$/, "");
  return inner === HEADER_TEXT;
}

function isEndLine(line: string): boolean {
  if (tooLongForMarker(line)) return false;
  return END_MARKER.test(foldAccents(line).trim());
}

function isBlank(line: string): boolean {
  return line.trim() === "";
}

type ParseResult = { ok: true; meta: LessonMetadata } | { ok: false; detail: string };

/**
 * Parses the lines between the markers. `firstLineNumber` is the 1-based document line of
 * `lines[0]`, for error details.
 *
 * Multi-line values: blank lines are skipped; the indentation common to all non-blank lines
 * is ignored (a block indented as a whole parses as if it were not); a line that is indented
 * (beyond that common indentation), or that is not a
 * field line (see FIELD_LINE), continues the value of the field above it. Values are the
 * trimmed lines joined by single spaces (`metaText` keeps the original layout). A line that
 * continues nothing (text before the first field) is a parse error, and so is a block without
 * any field. A field repeated (or written under two names of the same property, e.g.
 * "Keywords" and "Palavras-chave") has its values joined by a single space.
 */
function parseBlock(rawLines: readonly string[], firstLineNumber: number): ParseResult {
  const lines = dedent(rawLines);
  const entries: { name: string; parts: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isBlank(line)) continue;
    const indented = /^\s/.test(line);
    const match = indented ? null : FIELD_LINE.exec(line.trimEnd());
    if (match) {
      const value = (match[2] ?? "").trim();
      entries.push({ name: match[1]!.trim(), parts: value === "" ? [] : [value] });
      continue;
    }
    const current = entries[entries.length - 1];
    if (current === undefined) {
      return {
        ok: false,
        detail:
          `linha ${firstLineNumber + i} do bloco de metadados não segue o formato ` +
          `"Nome: valor" e não continua nenhum campo`,
      };
    }
    current.parts.push(line.trim());
  }
  if (entries.length === 0) {
    return { ok: false, detail: 'bloco de metadados sem nenhuma linha "Nome: valor"' };
  }

  const fields: Record<string, string> = {};
  const meta: LessonMetadata = { fields };
  for (const { name, parts } of entries) {
    const value = parts.join(" ").replace(/\s+/g, " ");
    fields[name] = joinValues(fields[name], value);
    const property = KNOWN_FIELDS.get(normalizeName(name));
    if (property !== undefined && value !== "") meta[property] = joinValues(meta[property], value);
  }
  return { ok: true, meta };
}

/** Removes the leading whitespace common to every non-blank line. */
function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((line) => !isBlank(line)).map((line) => /^\s*/.exec(line)![0]);
  let common = indents[0] ?? "";
  for (const indent of indents) {
    let n = 0;
    while (n < common.length && common[n] === indent[n]) n++;
    common = common.slice(0, n);
  }
  return lines.map((line) => (isBlank(line) ? line : line.slice(common.length)));
}

/** The two values joined by a space, an empty or missing one left out. */
function joinValues(previous: string | undefined, value: string): string {
  return [previous, value].filter((part) => part !== undefined && part !== "").join(" ");
}

/**
 * Splits a lesson into its metadata block and its markdown body.
 *
 * - No marker at all: legacy document, `{ body: content }`.
 * - Only the header, only the end marker, the end marker before the header, text before the
 *   header, or a second header before the end marker: `meta_block_malformed`, and the document
 *   is read as legacy (`body` is the whole content, unchanged).
 * - Markers in place but the block cannot be parsed (empty, no `Name: value` line, text before
 *   the first field): `meta_block_parse_error`, legacy as well.
 * - A block longer than {@link MAX_META_BLOCK_CHARS}: `meta_block_too_large`, legacy as well
 *   (the block goes to every prompt that shows one of the lesson's excerpts, so it is bounded;
 *   its text is then chunked as body, within the chunks' own bound).
 *
 * Tolerated: a leading BOM and blank lines before the header; CRLF/CR line endings; the header
 * with or without brackets, in any case, with or without accents ("INDEXACAO"); the end marker
 * with any number (≥ 3) of `=` on each side, in any case; field names in any case, with or
 * without accents, `-`/`_`/spaces alike ("Titulo", "TÍTULO", "Palavras-chave"). Markers are
 * whole lines (surrounding whitespace ignored). The header must be the first non-blank line;
 * the block ends at the first end marker after it (markers further down belong to the body).
 *
 * For a well-formed block, `metaText` is the text between the markers, trimmed, and `body` the
 * text after the end marker with leading blank lines removed; both have their line endings
 * normalised to `\n`.
 */
export function splitMetaBlock(content: string): SplitDocument {
  const text = content.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const lines = text.split("\n");

  let header = -1;
  let end = -1;
  for (let i = 0; i < lines.length && (header === -1 || end === -1); i++) {
    const line = lines[i]!;
    if (header === -1 && isHeaderLine(line)) header = i;
    else if (end === -1 && isEndLine(line)) end = i;
  }
  if (header === -1 && end === -1) return { body: content };
  // Read as legacy: the whole content is the body, unchanged.
  const legacy = (code: MetaBlockProblemCode, detail: string): SplitDocument => ({ body: content, problem: { code, detail } });
  if (header === -1) {
    return legacy("meta_block_malformed", `marcador de fim dos metadados (linha ${end + 1}) sem o cabeçalho do bloco`);
  }
  if (end !== -1 && end < header) {
    return legacy(
      "meta_block_malformed",
      `marcador de fim dos metadados (linha ${end + 1}) antes do cabeçalho (linha ${header + 1})`,
    );
  }
  if (end === -1) {
    return legacy(
      "meta_block_malformed",
      `cabeçalho de metadados (linha ${header + 1}) sem o marcador de fim "====== FIM DOS METADADOS ======"`,
    );
  }
  const firstNonBlank = lines.findIndex((line) => !isBlank(line));
  if (firstNonBlank < header) {
    return legacy(
      "meta_block_malformed",
      `texto antes do cabeçalho de metadados (linha ${header + 1}); o bloco deve abrir o documento`,
    );
  }
  const blockLines = lines.slice(header + 1, end);
  const repeated = blockLines.findIndex(isHeaderLine);
  if (repeated !== -1) {
    return legacy(
      "meta_block_malformed",
      `cabeçalho de metadados repetido (linha ${header + 2 + repeated}) antes do marcador de fim`,
    );
  }

  const blockChars = blockLines.reduce((sum, line) => sum + line.length + 1, 0);
  if (blockChars > MAX_META_BLOCK_CHARS) {
    return legacy(
      "meta_block_too_large",
      `bloco de metadados com ${blockChars.toLocaleString("pt-BR")} caracteres (o limite é ${MAX_META_BLOCK_CHARS.toLocaleString("pt-BR")})`,
    );
  }

  const parsed = parseBlock(blockLines, header + 2);
  if (!parsed.ok) return legacy("meta_block_parse_error", parsed.detail);
  const rest = lines.slice(end + 1).join("\n");
  const body = rest.trim() === "" ? "" : rest.replace(/^(?:[^\S\n]*\n)+/, "");
  return { meta: parsed.meta, metaText: blockLines.join("\n").trim(), body };
}
