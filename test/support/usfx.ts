import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A small but well-formed USFX document: books → chapters → verse texts. */
export function makeUsfx(books: Record<string, { name: string; chapters: string[][] }>): string {
  const parts = ['<?xml version="1.0" encoding="utf-8"?>', "<usfx>", "<languageCode>por</languageCode>"];
  for (const [code, book] of Object.entries(books)) {
    parts.push(`<book id="${code}"><id id="${code}"/><h>${book.name}</h>`);
    book.chapters.forEach((verses, c) => {
      parts.push(`<c id="${c + 1}"/><p>`);
      verses.forEach((text, v) => parts.push(`<v id="${v + 1}"/>${text}<ve/>`));
      parts.push("</p>");
    });
    parts.push("</book>");
  }
  parts.push("</usfx>");
  return parts.join("\n");
}

export function tempDir(prefix = "pastor-test-"): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export function writeFile(dir: string, name: string, content: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}
