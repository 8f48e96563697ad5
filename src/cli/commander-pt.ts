import { Help, type Command } from "commander";
import { printable } from "../core/printable.js";

/**
 * Commander in Brazilian Portuguese: the help headings and the parse errors (unknown option
 * or command, with commander's own "did you mean" suggestion; a missing argument; a value an
 * option refuses). Commander writes its messages in English and offers `configureOutput` to
 * change how they are shown, so the messages are translated there, pattern by pattern; any
 * message not known here is shown as commander wrote it, without the leading "error: ".
 */

const TITLES: Record<string, string> = {
  "Usage:": "Uso:",
  "Arguments:": "Argumentos:",
  "Options:": "Opções:",
  "Global Options:": "Opções globais:",
  "Commands:": "Comandos:",
};

/** Commander's error patterns and their Portuguese wording (`$n`: the captured parts). */
const ERRORS: [RegExp, (...parts: string[]) => string][] = [
  [/^error: unknown option '(.+)'$/, (flag) => `opção desconhecida: ${flag}`],
  [/^error: unknown command '(.+)'$/, (name) => `comando desconhecido: ${name}`],
  [/^error: missing required argument '(.+)'$/, (name) => `falta o argumento <${name}>`],
  [/^error: option '(.+)' argument missing$/, (flags) => `a opção ${flags} precisa de um valor`],
  [/^error: required option '(.+)' not specified$/, (flags) => `a opção ${flags} é obrigatória`],
  [/^error: option '(.+)' argument '(.*)' is invalid\. ?(.*)$/s, (flags, value, why) => `valor inválido para ${flags}: "${value}"${why ? ` (${why})` : ""}`],
  [
    /^error: command-argument value '(.*)' is invalid for argument '(.+)'\. ?(.*)$/s,
    (value, name, why) => `valor inválido para <${name}>: "${value}"${why ? ` (${why})` : ""}`,
  ],
  [
    /^error: too many arguments(?: for '(.+)')?\. Expected (\d+) arguments? but got (\d+)\.$/,
    (name, expected, got) => `argumentos demais${name ? ` para ${name}` : ""}: esperava ${expected}, recebeu ${got}`,
  ],
];

const SUGGESTION = /\n\(Did you mean (?:one of )?(.+)\?\)$/;

/** One commander error message in Portuguese, with its suggestion ("você quis dizer …?"). */
export function translateCommanderError(message: string): string {
  const text = message.trimEnd();
  const suggested = SUGGESTION.exec(text);
  const core = suggested ? text.slice(0, suggested.index) : text;
  const known = ERRORS.find(([pattern]) => pattern.test(core));
  const translated = known
    ? known[1](...known[0].exec(core)!.slice(1).map((part) => part ?? ""))
    : core.replace(/^error: /, "");
  const suggestion = suggested ? ` (você quis dizer ${suggested[1]!.split(", ").join(" ou ")}?)` : "";
  return `pastor: ${translated}${suggestion}`;
}

/**
 * Sets a program up for Portuguese before its commands are added (subcommands inherit it):
 * help headings and texts, translated errors, suggestions, a pointer to `--help` after an
 * error, and errors thrown (exitOverride) so the caller chooses the exit code.
 */
export function configurePortuguese(program: Command): Command {
  return program
    .configureHelp({
      styleTitle: (title: string) => TITLES[title] ?? title,
      optionDescription(option) {
        return Help.prototype.optionDescription.call(this, option).replace("(default: ", "(padrão: ");
      },
      subcommandTerm(command) {
        return Help.prototype.subcommandTerm.call(this, command).replace(" [options]", " [opções]");
      },
    })
    // An argument quoted back (an unknown command) is shown escaped, line by line.
    .configureOutput({ outputError: (message, write) => write(`${translateCommanderError(message).split("\n").map(printable).join("\n")}\n`) })
    .helpOption("-h, --help", "mostra esta ajuda")
    .helpCommand("help [comando]", "mostra a ajuda de um comando")
    .showSuggestionAfterError()
    .exitOverride();
}

/** Adds the "Exemplos:" section to a command's help and the `--help` pointer to its errors. */
export function withExamples(command: Command, examples: readonly string[]): Command {
  const heading = examples.length === 1 ? "Exemplo:" : "Exemplos:";
  const name = command.parent ? `pastor ${command.name()}` : "pastor";
  return command
    .addHelpText("after", `\n${heading}\n${examples.map((example) => `  ${example}`).join("\n")}`)
    .showHelpAfterError(`Veja \`${name} --help\`.`);
}
