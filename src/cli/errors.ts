import { CommanderError } from "commander";
import { CollectionNotFoundError } from "../core/documents/errors.js";
import { SettingsError } from "../config/settings.js";
import { EvalFileError } from "../core/retrieval/eval.js";
import { printable } from "../core/printable.js";

/** Exit codes a script can rely on. */
export const EXIT_OK = 0;
/** Some input failed (a corpus file, a query file, a reference); what could be done was done. */
export const EXIT_INPUT_FAILED = 1;
/** The command line or the configuration is wrong; nothing was done. */
export const EXIT_USAGE = 2;

/** An input the user gave could not be used (a reference that does not exist, an unreadable file). */
export class InputError extends Error {}

/** The command line is wrong (an option that needs another one); `command` names the help to point at. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/** The exit code for an error that stopped a command. */
export function exitCodeFor(error: unknown): number {
  // Commander "exits" 0 for help that was asked for (--help, `pastor help`), 1 for a parse error or help shown for one.
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  if (error instanceof UsageError || error instanceof SettingsError || error instanceof CollectionNotFoundError) return EXIT_USAGE;
  return EXIT_INPUT_FAILED;
}

/**
 * Prints an error that stopped a command on stderr, as one `pastor: …` line (no stack trace
 * unless DEBUG is set). Commander's own errors were printed already (see commander-pt.ts).
 */
export function reportError(error: unknown): void {
  if (error instanceof CommanderError) return;
  const known = error instanceof InputError || error instanceof UsageError || error instanceof SettingsError || error instanceof EvalFileError;
  // The message may quote data (a file name, a line of a file): printed escaped, never acted on.
  console.error(`pastor: ${printable(error instanceof Error ? error.message : String(error))}`);
  if (error instanceof UsageError && error.command) console.error(`Veja \`pastor ${error.command} --help\`.`);
  if (!known && error instanceof Error && process.env.DEBUG) console.error(error.stack);
}
