import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { createConnection } from "mysql2/promise";
import { freePort } from "./net.js";

/**
 * A private MariaDB server for the tests: its own data directory under the system temp folder,
 * its own socket, a free TCP port on loopback and a password-protected user, so tests never touch
 * (nor depend on) a system MySQL service. Start: `mariadb-install-db` (~2 s) then `mariadbd`
 * (ready in well under a second). Missing binaries are an error, never a skip: CI installs them
 * with scripts/ci/install-mariadb.sh.
 */
export interface TestMariaDb {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** `mysql://user:password@host:port/database` (password URL-encoded). */
  url: string;
  /** Milliseconds from the call to the server accepting the test user over TCP. */
  startMs: number;
  /** Stops the server (SIGTERM, then SIGKILL after 15 s) and removes its data directory. */
  stop(): Promise<void>;
}

const INSTALL_HINT = "rode scripts/ci/install-mariadb.sh (instala o pacote mariadb-server do Debian)";
const READY_TIMEOUT_MS = 30_000;
const STDERR_TAIL_CHARS = 4000;

/** Directories searched after PATH: on Debian the server lives in /usr/sbin, often outside a user's PATH. */
const EXTRA_DIRS = ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin", "/usr/local/mysql/bin"];

function findBinary(names: string[]): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), ...EXTRA_DIRS];
  for (const name of names) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

function tail(text: string, chars = STDERR_TAIL_CHARS): string {
  return text.length > chars ? `…${text.slice(-chars)}` : text;
}


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends `signal`, escalates to SIGKILL after `graceMs`, and resolves once the process is gone. */
async function terminate(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await gone;
  clearTimeout(timer);
}

/**
 * A detached `sh` loop that kills the server and removes its folder if this Node process dies
 * without running its exit hooks (SIGKILL, a worker torn down by the test runner), so no orphan
 * mariadbd keeps running. Stopped by `stop()`.
 */
function startWatchdog(serverPid: number, dir: string): ChildProcess {
  const script = 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; kill -9 "$2" 2>/dev/null; sleep 1; rm -rf "$3"';
  const watchdog = spawn("sh", ["-c", script, "mariadb-watchdog", String(process.pid), String(serverPid), dir], {
    detached: true,
    stdio: "ignore",
  });
  watchdog.on("error", () => {}); // best effort: without sh, the exit hook still covers normal exits
  watchdog.unref();
  return watchdog;
}

/** Starts a private MariaDB server; call `stop()` in `afterAll` (an exit hook also kills it). */
export async function startMariaDb(): Promise<TestMariaDb> {
  const started = performance.now();
  const server = findBinary(["mariadbd", "mysqld"]);
  const installDb = findBinary(["mariadb-install-db", "mysql_install_db"]);
  if (!server || !installDb) {
    const missing = [server ? undefined : "mariadbd (ou mysqld)", installDb ? undefined : "mariadb-install-db"].filter(Boolean);
    throw new Error(`MariaDB não encontrado (falta ${missing.join(" e ")} no PATH e em /usr/sbin): ${INSTALL_HINT}.`);
  }
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  // mariadbd refuses to run as root unless told to; as another user it simply runs as that user.
  const userArgs = asRoot ? ["--user=root"] : [];

  const dir = mkdtempSync(join(tmpdir(), "pastor-mariadb-"));
  const dataDir = join(dir, "data");
  const socket = join(dir, "mysqld.sock");
  let child: ChildProcess | undefined;
  let watchdog: ChildProcess | undefined;
  const killOnExit = () => {
    child?.kill("SIGKILL");
    watchdog?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", killOnExit);

  try {
    const install = spawnSync(
      installDb,
      [
        "--no-defaults",
        `--datadir=${dataDir}`,
        "--auth-root-authentication-method=normal",
        "--skip-test-db",
        "--skip-name-resolve",
        ...userArgs,
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    if (install.status !== 0) {
      throw new Error(
        `mariadb-install-db falhou (código ${install.status ?? install.signal ?? install.error?.message}):\n${tail(`${install.stdout ?? ""}${install.stderr ?? ""}`)}`,
      );
    }

    let stderr = "";
    let exited: string | undefined;
    let port = 0;
    // A free port can be taken between the probe and the bind: retry on "Address already in use".
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      stderr = "";
      exited = undefined;
      child = spawn(
        server,
        [
          "--no-defaults",
          `--datadir=${dataDir}`,
          `--socket=${socket}`,
          `--port=${port}`,
          "--bind-address=127.0.0.1",
          `--pid-file=${join(dir, "mysqld.pid")}`,
          `--tmpdir=${dir}`,
          ...userArgs,
          "--skip-log-bin",
          "--skip-name-resolve",
          "--performance-schema=OFF",
          "--innodb-buffer-pool-size=16M",
          "--innodb-flush-log-at-trx-commit=0",
          "--innodb-doublewrite=0",
          // libaio/io_uring are often unavailable in containers.
          "--innodb-use-native-aio=0",
          "--max-connections=50",
          "--character-set-server=utf8mb4",
          "--collation-server=utf8mb4_unicode_ci",
        ],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      watchdog?.kill("SIGKILL");
      if (child.pid !== undefined) watchdog = startWatchdog(child.pid, dir);
      child.stderr!.setEncoding("utf8");
      child.stderr!.on("data", (data: string) => {
        stderr = tail(stderr + data, STDERR_TAIL_CHARS * 2);
      });
      child.once("exit", (code, signal) => {
        exited = `código ${code ?? signal}`;
      });

      const deadline = Date.now() + READY_TIMEOUT_MS;
      let ready = false;
      let lastError = "";
      while (!exited && Date.now() < deadline) {
        try {
          const root = await createConnection({ socketPath: socket, user: "root", password: "", connectTimeout: 2000 });
          await root.end();
          ready = true;
          break;
        } catch (error) {
          lastError = error instanceof Error ? error.message : String(error);
          await sleep(100);
        }
      }
      if (ready) break;
      if (exited && /address already in use/i.test(stderr) && attempt < 3) continue;
      throw new Error(
        exited
          ? `mariadbd terminou antes de aceitar conexões (${exited}). Fim do stderr:\n${tail(stderr)}`
          : `mariadbd não aceitou conexões em ${READY_TIMEOUT_MS / 1000} s (último erro: ${lastError}). Fim do stderr:\n${tail(stderr)}`,
      );
    }

    const user = "pastor";
    const password = `pw-${randomBytes(12).toString("hex")}`;
    const database = "pastor_test";
    const host = "127.0.0.1";
    const root = await createConnection({ socketPath: socket, user: "root", password: "" });
    try {
      await root.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      await root.query("CREATE USER ?@? IDENTIFIED BY ?", [user, host, password]);
      await root.query(`GRANT ALL PRIVILEGES ON \`${database}\`.* TO ?@?`, [user, host]);
    } finally {
      await root.end();
    }
    // The test user over TCP: proves both the port and the password authentication.
    const probe = await createConnection({ host, port, user, password, database, connectTimeout: 5000 });
    await probe.end();

    const running = child!;
    const url = `mysql://${user}:${encodeURIComponent(password)}@${host}:${port}/${database}`;
    return {
      host,
      port,
      user,
      password,
      database,
      url,
      startMs: Math.round(performance.now() - started),
      async stop() {
        await terminate(running, "SIGTERM", 15_000);
        watchdog?.kill("SIGKILL");
        process.removeListener("exit", killOnExit);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (child) await terminate(child, "SIGKILL", 0);
    watchdog?.kill("SIGKILL");
    process.removeListener("exit", killOnExit);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
