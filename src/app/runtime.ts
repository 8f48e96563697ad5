import { config as loadDotenv } from "dotenv";
import path from "node:path";
import { openIndexStore, type StoreConfig } from "../adapters/index/open.js";
import type { UnitStore } from "../adapters/index/store.js";
import { readSettings, type Settings } from "../config/settings.js";

/** Reads `.env` (if any) and the environment; throws SettingsError naming a bad variable. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  if (env === process.env) loadDotenv({ quiet: true });
  return readSettings(env);
}

/** The store the settings name: the SQLite file under DATA_DIR, or the ChromaDB server (VECTOR_STORE=chroma). */
export function storeConfig(settings: Settings): StoreConfig {
  if (settings.VECTOR_STORE === "chroma") return { kind: "chroma", url: settings.CHROMA_URL, prefix: settings.CHROMA_COLLECTION_PREFIX };
  return { kind: "sqlite", dataDir: path.resolve(settings.DATA_DIR) };
}

export function openStore(settings: Settings): Promise<UnitStore> {
  return openIndexStore(storeConfig(settings));
}
