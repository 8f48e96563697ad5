import type { UnitStore } from "../adapters/index/store.js";
import { openStore } from "../app/runtime.js";
import type { Settings } from "../config/settings.js";
import { requireWritableDataDir } from "./folders.js";

/** Opens the configured store; with SQLite, first checks that DATA_DIR can hold the index file. */
export function openCliStore(settings: Settings): Promise<UnitStore> {
  if (settings.VECTOR_STORE === "sqlite") requireWritableDataDir(settings.DATA_DIR);
  return openStore(settings);
}
