import cliProgress from "cli-progress";
import type { IndexProgress } from "../app/index/indexer.js";
import { printable } from "../core/printable.js";

const PHASE_LABEL: Record<IndexProgress["phase"], string> = {
  scanning: "Lendo o corpus",
  lexical: "Índice léxico",
  training: "Treinando o modelo semântico",
  dense: "Vetores",
  done: "Pronto",
};

const UNIT_LABEL: Record<NonNullable<IndexProgress["counts"]> | "verses", string> = {
  verses: "versículos",
  documents: "documentos",
  chunks: "trechos",
};

/**
 * Whether bars may be drawn: only for a person at a terminal, so never when stdout or the bar's
 * stream is not a terminal (a pipe, a file, a test) or when NO_COLOR is set.
 */
export function barsAllowed(stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(stream.isTTY && process.stdout.isTTY) && !env.NO_COLOR && env.TERM !== "dumb";
}

/** A progress bar on stderr (verses, documents or chunks done/total, rate, ETA); silent unless {@link barsAllowed}. */
export function createProgressReporter(stream: NodeJS.WriteStream = process.stderr): {
  update: (progress: IndexProgress) => void;
  stop: () => void;
} {
  if (!barsAllowed(stream)) return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: "{phase} |{bar}| {value}/{total} {unit} · {rate}/s · ETA {eta_formatted}",
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let currentPhase: string | undefined;
  let phaseStart = Date.now();
  return {
    update(progress) {
      const phase = PHASE_LABEL[progress.phase] + (progress.source ? ` (${printable(progress.source)})` : "");
      const total = Math.max(progress.total, 1);
      const unit = UNIT_LABEL[progress.counts ?? "verses"];
      if (phase !== currentPhase) {
        phaseStart = Date.now();
        if (currentPhase !== undefined) bar.stop();
        currentPhase = phase;
        bar.start(total, progress.done, { phase, unit, rate: "0" });
      }
      const seconds = Math.max((Date.now() - phaseStart) / 1000, 0.001);
      bar.setTotal(total);
      bar.update(progress.done, { phase, unit, rate: Math.round(progress.done / seconds).toString() });
    },
    stop() {
      // A bar is started with the first update.
      if (currentPhase !== undefined) bar.stop();
    },
  };
}
