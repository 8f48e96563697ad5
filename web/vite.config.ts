import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const webDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(webDir, "..");

/**
 * The web app: React + TypeScript compiled by Vite's own transformer (oxc, automatic JSX
 * runtime), no framework plugin. It imports the project's reference grammar from
 * src/core/bible (pure TypeScript), so the dev server may read files above web/.
 */
export default defineConfig({
  root: webDir,
  base: "/",
  oxc: { jsx: { runtime: "automatic", importSource: "react" } },
  build: {
    outDir: path.join(webDir, "dist"),
    emptyOutDir: true,
    target: "es2022",
    sourcemap: true,
  },
  server: {
    port: 5173,
    fs: { allow: [repoRoot] },
    proxy: { "/api": { target: "http://localhost:8080", changeOrigin: false } },
  },
  preview: {
    proxy: { "/api": { target: "http://localhost:8080", changeOrigin: false } },
  },
});
