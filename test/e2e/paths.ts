import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ARTIFACTS = path.join(ROOT, "test-artifacts");
export const SCREENSHOTS = path.join(ARTIFACTS, "screenshots");
export const E2E_DATA_DIR = path.join(ARTIFACTS, "e2e", "data");
/** The document collections the e2e servers serve (the repository's own, with "exemplo"). */
export const E2E_COLLECTIONS_DIR = path.join(ROOT, "collections");
