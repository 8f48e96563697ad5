/**
 * RFC 4180 CSV, as the reference data is written (Theographic, Nave's): fields separated by
 * commas, quoted fields may hold commas, line breaks and doubled quotes, a UTF-8 BOM and CRLF
 * line ends are accepted. Pure; the caller names the file in its own error.
 */

/** Thrown for a quoted field left open at the end of the text. */
export class CsvError extends Error {
  constructor(readonly line: number) {
    super(`aspas não fechadas a partir da linha ${line}`);
    this.name = "CsvError";
  }
}

/** Every record as an array of fields (the header too); a trailing empty line is no record. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let quoteLine = 1;
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n") line++;
        field += c;
      }
    } else if (c === '"' && field === "") {
      quoted = true;
      quoteLine = line;
    } else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      line++;
      record.push(field);
      records.push(record);
      record = [];
      field = "";
    } else field += c;
  }
  if (quoted) throw new CsvError(quoteLine);
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** The records after the header as objects keyed by the header's names. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ""])));
}
