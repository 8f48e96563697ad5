/**
 * The dependency rules of docs/ARCHITECTURE.md, read from the real sources: the pure core
 * imports no adapter, app, server or CLI module (nor node:fs/http/child_process/worker
 * I/O), and no module imports itself back through others (no import circle).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/bible-index.js";

const SRC = path.join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** Every `import … from "x"` / `export … from "x"` / `import("x")` specifier of a file, type-only ones included. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g)) {
    found.push((match[1] ?? match[2])!);
  }
  return found;
}

const files = sourceFiles(SRC);
const relative = (file: string) => path.relative(SRC, file).split(path.sep).join("/");
const graph = new Map<string, string[]>(
  files.map((file) => [
    relative(file),
    specifiers(file)
      .filter((s) => s.startsWith("."))
      .map((s) => relative(path.resolve(path.dirname(file), s.replace(/\.js$/, ".ts")))),
  ]),
);

describe("the dependency rules", () => {
  it("reads the real import graph (sanity: it knows the modules and their edges)", () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get("app/chat.ts")).toContain("app/grounded-answer.ts");
    expect(graph.get("server/app.ts")).toContain("app/chat.ts");
  });

  it("keeps the core pure: no adapter, app, server, CLI or config module, no I/O but three file loaders", () => {
    // The file readers still beside their parsers (each parser is pure; only these functions read a file).
    const fileLoaders = new Set(["core/analysis/lexicon.ts", "core/bible/cross-references.ts", "core/corpus/usfx.ts"]);
    const offenders: string[] = [];
    for (const file of files.filter((f) => relative(f).startsWith("core/"))) {
      for (const s of specifiers(file)) {
        const target = s.startsWith(".") ? relative(path.resolve(path.dirname(file), s)) : s;
        const io = /^node:(fs|http|https|net|child_process|worker_threads)/.test(target);
        if (/^(adapters|app|server|cli|config)\//.test(target) || (io && !(fileLoaders.has(relative(file)) && target.startsWith("node:fs")))) {
          offenders.push(`${relative(file)} → ${s}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("has no import circle", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (node: string) => {
      state.set(node, "open");
      stack.push(node);
      for (const next of graph.get(node) ?? []) {
        if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next].join(" → "));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(node, "done");
    };
    for (const node of graph.keys()) if (!state.has(node)) visit(node);
    expect(cycles).toEqual([]);
  });
});
