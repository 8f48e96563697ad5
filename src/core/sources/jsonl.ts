/**
 * JSON Lines as the project's data files write them (eval sets, the topical index): one JSON
 * value per line, blank lines skipped. Pure; the caller names the file in its own error.
 */

/** Each non-blank line's value with its 1-based line number; a line that is not JSON throws `invalid(line)`. */
export function parseJsonLines(text: string, invalid: (line: number) => Error): { line: number; value: unknown }[] {
  const rows: { line: number; value: unknown }[] = [];
  text.split("\n").forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed === "") return;
    try {
      rows.push({ line: index + 1, value: JSON.parse(trimmed) as unknown });
    } catch {
      throw invalid(index + 1);
    }
  });
  return rows;
}
