/** Character classes shared by the citation checks (verses and documents). */

const HWS_CHARS = new Set(["\t", " ", "\u00a0", "\u1680", "\u202f", "\u205f", "\u3000"]);
for (let c = 0x2000; c <= 0x200a; c++) HWS_CHARS.add(String.fromCharCode(c));

/** Horizontal whitespace (spaces and tabs of every width, never a line break). */
export function isHws(c: string | undefined): boolean {
  return c !== undefined && HWS_CHARS.has(c);
}

export function isNewline(c: string | undefined): boolean {
  return c === "\n" || c === "\r" || c === "\u2028" || c === "\u2029";
}
