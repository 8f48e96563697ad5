import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromaCliPath, CHROMA_SETUP_HINT } from "../../src/adapters/index/chroma-client.js";
import { freePort } from "./net.js";
export { freePort };

/**
 * A real Chroma server for tests and benchmarks: the native server shipped by the `chromadb`
 * npm package installed in `chroma/` (`npm run setup:chroma`), on 127.0.0.1 on a free port,
 * with its data in a temporary folder. `stop()` and `start()` keep the port and the folder,
 * so a test can take the server down and bring the same one back.
 */
export interface ChromaServer {
  readonly url: string;
  readonly port: number;
  readonly dataPath: string;
  /** Is the process running (between start and stop)? */
  readonly running: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops the server and deletes its data. */
  dispose(): Promise<void>;
}

export function chromaInstalled(): boolean {
  return chromaCliPath() !== undefined;
}


async function heartbeat(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/api/v2/heartbeat`, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

export async function startChromaServer(options: { port?: number; dataPath?: string; startTimeoutMs?: number } = {}): Promise<ChromaServer> {
  const cli = chromaCliPath();
  if (!cli) throw new Error(`O servidor do ChromaDB não está instalado em chroma/node_modules: ${CHROMA_SETUP_HINT}.`);
  const port = options.port ?? (await freePort());
  const dataPath = options.dataPath ?? mkdtempSync(path.join(tmpdir(), "pastor-chroma-"));
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let output = "";

  const start = async () => {
    if (child) return;
    output = "";
    const proc = spawn(process.execPath, [cli, "run", "--path", dataPath, "--host", "127.0.0.1", "--port", String(port)], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    child = proc;
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    proc.stdout!.on("data", keep);
    proc.stderr!.on("data", keep);
    let exited = false;
    proc.once("exit", () => {
      exited = true;
      if (child === proc) child = undefined;
    });
    const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
    while (Date.now() < deadline) {
      if (exited) throw new Error(`o servidor do ChromaDB terminou ao iniciar:\n${output}`);
      if (await heartbeat(url)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    proc.kill("SIGKILL");
    throw new Error(`o servidor do ChromaDB não respondeu em ${url}:\n${output}`);
  };

  const stop = async () => {
    const proc = child;
    if (!proc) return;
    child = undefined;
    await new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      const force = setTimeout(() => proc.kill("SIGKILL"), 5000);
      proc.once("exit", () => {
        clearTimeout(force);
        resolve();
      });
      proc.kill("SIGTERM");
    });
    // The port is free once nothing answers there.
    for (let i = 0; i < 50 && (await heartbeat(url)); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  };

  await start();
  return {
    url,
    port,
    dataPath,
    get running() {
      return child !== undefined;
    },
    start,
    stop,
    async dispose() {
      await stop();
      if (!options.dataPath) rmSync(dataPath, { recursive: true, force: true });
    },
  };
}
