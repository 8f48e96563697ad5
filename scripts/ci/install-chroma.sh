#!/usr/bin/env bash
# Installs the optional ChromaDB package (client + local native server) into chroma/, from its
# own lockfile: chromadb 3.5.0 with the Linux x64 binding pinned to 1.0.5 (newer bindings
# need glibc 2.38). The app imports the client from chroma/node_modules only when
# VECTOR_STORE=chroma; the default install (npm install && npm start) never downloads it.
set -euo pipefail
cd "$(dirname "$0")/../../chroma"
npm ci --no-audit --no-fund
node -e 'import("chromadb").then((m) => { if (typeof m.ChromaClient !== "function") process.exit(1); console.log("chromadb", JSON.parse(require("fs").readFileSync("node_modules/chromadb/package.json", "utf8")).version, "instalado em chroma/"); })'
