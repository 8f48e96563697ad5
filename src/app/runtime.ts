import { config as loadDotenv } from "dotenv";
import path from "node:path";
import { SqliteStore } from "../adapters/store/sqlite-store.js";
import { readSettings, type Settings } from "../config/settings.js";


/** Reads `.env` (if any) and the environment; throws SettingsError naming a bad variable. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  if (env === process.env) loadDotenv({ quiet: true });
  return readSettings(env);
}

export function openStore(settings: Settings): SqliteStore {
  return SqliteStore.open(path.resolve(settings.DATA_DIR));
}
