/**
 * Bundles the compiled CLI (dist/cli/main.js, tsc's output) into dist/bundle/: a start then
 * reads a few files instead of resolving and compiling some 200 modules one by one, which was
 * the largest part of a command-line search's second (see docs/ARCHITECTURE.md, "Start").
 * Commands load their parts on demand (`import()`), so each becomes a chunk of its own.
 *
 * Packages stay in node_modules (native addons, lazy heavy ones, files they read beside them),
 * except the pure ones every start loads: BUNDLED (with what they import). Workers are not bundled: they start
 * from dist/app (src/app/start-worker.ts).
 */
import { build } from "esbuild";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = `${path.dirname(path.dirname(fileURLToPath(import.meta.url)))}/`;
/** Packages read on every start, pure JavaScript, bundled with the code. */
const BUNDLED = new Set(["zod", "ml-matrix"]);

const packageName = (specifier) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");

rmSync(`${ROOT}dist/bundle`, { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  entryPoints: ["dist/cli/main.js"],
  outdir: "dist/bundle",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
  plugins: [
    {
      name: "packages-outside",
      setup(build) {
        // A bundled package's own dependencies are bundled with it.
        const inBundledPackage = (importer) => importer.includes(`${path.sep}node_modules${path.sep}`);
        build.onResolve({ filter: /^[^./]/ }, (args) =>
          BUNDLED.has(packageName(args.path)) || inBundledPackage(args.importer) ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
