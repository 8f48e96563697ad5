#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/, bundled into dist/bundle/ (built by `npm install` through `prepare`).
import("../dist/bundle/main.js").catch((error) => {
  if (error && error.code === "ERR_MODULE_NOT_FOUND") {
    console.error("pastor: a compilação não foi encontrada em dist/. Rode `npm run build` (ou `npm install`).");
    process.exit(1);
  }
  throw error;
});
