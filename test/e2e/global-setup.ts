import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { CHROMIUM_PATH, E2E_COLLECTIONS_DIR, E2E_DATA_DIR, ROOT } from "./paths.js";

declare module "vitest" {
  export interface ProvidedContext {
    dataDir: string;
  }
}

/** Newest modification time of the files under these paths (0 when none exist). */
function newest(paths: string[]): number {
  let max = 0;
  const visit = (target: string) => {
    if (!existsSync(target)) return;
    const stat = statSync(target);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(target)) if (entry !== "node_modules" && entry !== "dist") visit(path.join(target, entry));
    } else {
      max = Math.max(max, stat.mtimeMs);
    }
  };
  for (const target of paths) visit(path.join(ROOT, target));
  return max;
}

function mtime(file: string): number {
  const full = path.join(ROOT, file);
  return existsSync(full) ? statSync(full).mtimeMs : 0;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): void {
  execFileSync(command, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env }, timeout: 600_000 });
}

export default function setup(project: TestProject): void {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
  } catch {
    throw new Error(
      `The e2e tests need Chromium at ${CHROMIUM_PATH} and it is missing. ` +
        "Install it with `apt-get install -y chromium` (Debian), or set CHROMIUM_PATH to a Chromium binary.",
    );
  }

  const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);
  if (mtime("dist/cli/main.js") < newest(["src", "tsconfig.build.json", "tsconfig.json"])) {
    console.log("[e2e] compiling the server (npm run build)…");
    run(bin("tsc"), ["-p", "tsconfig.build.json"]);
  }
  if (mtime("web/dist/index.html") < newest(["web/src", "web/index.html", "web/vite.config.ts", "src/core/bible"])) {
    console.log("[e2e] building the web app (vite build)…");
    run(bin("vite"), ["build", "--config", "web/vite.config.ts", "--logLevel", "warn"]);
  }

  // The Bible index, built once and kept between runs (indexing is incremental: a second
  // run only checks the corpus hashes).
  mkdirSync(E2E_DATA_DIR, { recursive: true });
  console.log(`[e2e] preparing the index in ${path.relative(ROOT, E2E_DATA_DIR)}…`);
  run(process.execPath, [path.join(ROOT, "bin", "pastor.js"), "index"], {
    DATA_DIR: E2E_DATA_DIR,
    CORPUS_DIR: path.join(ROOT, "corpus"),
    EMBEDDING_MODEL: "lsa",
    CI: "true",
  });
  // The document collections shipped in collections/ (the "exemplo" lessons), stored next to the
  // Bible index: every e2e server (AUTO_INDEX=false) then serves them from the start. Reloads are
  // incremental too: unchanged documents cost nothing.
  console.log("[e2e] reloading the document collections…");
  run(process.execPath, [path.join(ROOT, "bin", "pastor.js"), "reload"], {
    DATA_DIR: E2E_DATA_DIR,
    COLLECTIONS_DIR: E2E_COLLECTIONS_DIR,
    CI: "true",
  });
  project.provide("dataDir", E2E_DATA_DIR);
}
