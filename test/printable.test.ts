import { describe, expect, it } from "vitest";
import { printable, printableJson } from "../src/core/printable.js";

describe("printable", () => {
  it("escapes C0, DEL, C1 and bidirectional characters, drops NUL, keeps every other character", () => {
    expect(printable("a\u001b[2Jb")).toBe("a\\x1b[2Jb");
    expect(printable("linha\r\nforjada\tx")).toBe("linha\\r\\nforjada\\tx");
    expect(printable("\u0007\u007f\u0085\u009b")).toBe("\\x07\\x7f\\x85\\x9b");
    expect(printable("Ap \u202e12:22\u202c \u2066x\u2069 \u200e\u200f\u061c")).toBe("Ap \\u202e12:22\\u202c \\u2066x\\u2069 \\u200e\\u200f\\u061c");
    expect(printable("a\u0000b\u0000")).toBe("ab");
    expect(printable("Gênesis 1:1 — “Palavra” 🙏 \u00a0ç")).toBe("Gênesis 1:1 — “Palavra” 🙏 \u00a0ç");
  });

  it("is idempotent: what it returns holds nothing it would change", () => {
    const all = Array.from({ length: 0x2070 }, (_, code) => String.fromCharCode(code)).join("");
    const once = printable(all);
    expect(printable(once)).toBe(once);
    expect(once).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/); // eslint-disable-line no-control-regex
  });
});

describe("printableJson", () => {
  it("is the same JSON value, with no raw DEL, C1 or bidirectional character", () => {
    const value = { file: "a\u001b[2J\u202eb\u009b\u007f.xml", n: 1, list: ["\u2066", "ok"] };
    const text = printableJson(value);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/); // eslint-disable-line no-control-regex
    expect(JSON.parse(text)).toEqual(value);
    expect(text).toBe(JSON.stringify(value, null, 2).replace("\u202e", "\\u202e").replace("\u009b", "\\u009b").replace("\u007f", "\\u007f").replace("\u2066", "\\u2066"));
  });
});
