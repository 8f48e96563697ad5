import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project root (the folder holding package.json), found by walking up from this file,
 * so shipped data (corpus/, resources/) resolves the same from src/ under tsx and from dist/.
 */
export function findProjectRoot(startUrl: string | URL = import.meta.url): string {
  let dir = dirname(fileURLToPath(startUrl));
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json não encontrado acima de ${fileURLToPath(startUrl)}`);
    dir = parent;
  }
}
