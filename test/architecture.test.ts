/**
 * The dependency rules of docs/ARCHITECTURE.md, read from the real sources: the pure core
 * imports nothing outside src/core but npm packages and node:crypto (no adapter, app, http,
 * CLI or config module, no node:fs, node:path, node:stream, node:zlib or other I/O built-in);
 * the pipeline's stage folders (sources → index → retrieval → grounding → chat, on the
 * analysis and the three domain models, then http and the CLI) import only their own stage and
 * earlier ones, in every layer; and no module imports itself back through others (no import
 * circle).
 */
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/bible-index.js";

const SRC = path.join(ROOT, "src");
/** The Node built-ins core may use: computation only (hashing), no file, network, process or clock. */
const PURE_BUILTINS = new Set(["crypto"]);

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
    expect(graph.get("app/chat/bible-chat.ts")).toContain("app/chat/grounded-answer.ts");
    expect(graph.get("http/app.ts")).toContain("app/chat/bible-chat.ts");
  });

  it("keeps the core pure: no module outside core, no I/O module (the file readers live in adapters/sources)", () => {
    const offenders: string[] = [];
    for (const file of files.filter((f) => relative(f).startsWith("core/"))) {
      for (const s of specifiers(file)) {
        // A relative import must stay inside core/ (src/project-root.ts, adapters, app… read files or wire them).
        const outside = s.startsWith(".") && !relative(path.resolve(path.dirname(file), s)).startsWith("core/");
        // Node built-ins, with or without "node:", are I/O (fs, path, stream, zlib, os, net…) but for pure computation.
        const builtin = s.replace(/^node:/, "");
        const io = (s.startsWith("node:") || builtinModules.includes(builtin)) && !PURE_BUILTINS.has(builtin);
        if (outside || io) offenders.push(`${relative(file)} → ${s}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("follows the pipeline: every stage folder imports only its own stage and earlier ones, whatever the layer", () => {
    // core/<stage>, adapters/<stage> and app/<stage> share the stage names; http and cli come last.
    // The app's root modules (runtime, start-worker, the two services) wire across stages and are not staged.
    const order = new Map<string, number>([
      ["analysis", 0],
      ["bible", 1],
      ["documents", 1],
      ["knowledge", 1],
      ["reading", 2],
      ["sources", 2],
      ["index", 3],
      ["retrieval", 4],
      ["grounding", 5],
      ["chat", 6],
      ["http", 7],
      ["cli", 7],
    ]);
    const stageOf = (module: string): string | undefined => {
      const parts = module.split("/");
      if (["core", "adapters", "app"].includes(parts[0]!)) return parts.length > 2 ? parts[1] : undefined;
      return parts.length > 1 && order.has(parts[0]!) ? parts[0] : undefined;
    };
    const staged = [...graph.keys()].filter((module) => stageOf(module) !== undefined);
    // Sanity: every folder of core, adapters and app is a known stage, and each stage holds modules.
    expect([...new Set(staged.map(stageOf))].filter((stage) => !order.has(stage!))).toEqual([]);
    expect(new Set(staged.map(stageOf)).size).toBe(order.size);
    const backwards: string[] = [];
    for (const module of staged) {
      for (const target of graph.get(module)!) {
        const to = stageOf(target);
        if (to !== undefined && order.get(to)! > order.get(stageOf(module)!)!) backwards.push(`${module} → ${target}`);
      }
    }
    expect(backwards).toEqual([]);
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
