# Pastor Online: one image for the API (+ web app) and for the local Chroma server of chroma/.
# It runs what .ci/run runs on a clean machine (npm ci, build, npm run setup:chroma); CI does
# not build it (Docker does not run there). Debian bookworm: glibc 2.36, the reason the Chroma
# binding is pinned to 1.0.5 in chroma/package.json.
FROM node:20.20-bookworm-slim AS build
WORKDIR /app
# onnxruntime-node's post-install would try to download CUDA files: the CPU binary ships in the package.
ENV ONNXRUNTIME_NODE_INSTALL=skip ONNXRUNTIME_NODE_INSTALL_CUDA=skip
# npm 11 reads "allowScripts" in package.json (the project's npm); better-sqlite3 compiles if no prebuilt matches.
RUN npm install -g npm@11.19.1 \
 && apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 make g++ >/dev/null \
 && rm -rf /var/lib/apt/lists/*
COPY . .
# `prepare` builds the server (dist/) and the web app (web/dist/); then the dev tools go.
RUN npm ci --no-audit --no-fund \
 && npm prune --omit=dev --no-audit --no-fund \
 && bash scripts/ci/install-chroma.sh

FROM node:20.20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data
COPY --from=build /app/package.json ./
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/corpus ./corpus
COPY --from=build /app/resources ./resources
COPY --from=build /app/chroma ./chroma
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "bin/pastor.js", "serve"]
