/**
 * A worker thread that builds the retrieval aids' snapshot from the resource files
 * (./aids-snapshot.ts) and hands its bytes over (transferred): an index run starts it at once,
 * and the bytes are ready when the index is written (./aids-build.ts).
 */
import { parentPort } from "node:worker_threads";
import { buildAidsSnapshot, type BuiltAidsSnapshot } from "./aids-snapshot.js";

export type AidsBuildMessage = { type: "built"; built: BuiltAidsSnapshot } | { type: "failed"; message: string };

if (parentPort) {
  const port = parentPort;
  buildAidsSnapshot().then(
    (built) => {
      const own = built.bytes.byteOffset === 0 && built.bytes.byteLength === built.bytes.buffer.byteLength && built.bytes.buffer instanceof ArrayBuffer;
      port.postMessage({ type: "built", built } satisfies AidsBuildMessage, own ? [built.bytes.buffer as ArrayBuffer] : []);
    },
    (error: unknown) => port.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) } satisfies AidsBuildMessage),
  );
}
