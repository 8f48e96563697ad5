import path from "node:path";
import { CollectionError } from "../../core/documents/errors.js";

/** Collection names: ASCII letters, digits, `_` and `-`, starting with a letter or digit, 1–64 characters. */
export const COLLECTION_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

export type CollectionStoreErrorCode = "invalid_collection_name";

/** Error raised by the collection store; its message is user-facing (Portuguese). */
export class CollectionStoreError extends CollectionError<CollectionStoreErrorCode> {}

/** @throws {CollectionStoreError} `invalid_collection_name` when `name` is not a valid collection name. */
export function assertCollectionName(name: string): void {
  if (typeof name !== "string" || !COLLECTION_NAME.test(name)) {
    throw new CollectionStoreError(
      "invalid_collection_name",
      String(name),
      `Nome de coleção inválido: ${JSON.stringify(name)} (use letras sem acento, números, _ e -, começando por letra ou número, até 64 caracteres).`,
    );
  }
}

/** Path of a collection's index file: `${dataDir}/collections/${name}.sqlite`. */
export function collectionStoreFile(dataDir: string, name: string): string {
  assertCollectionName(name);
  return path.join(dataDir, "collections", `${name}.sqlite`);
}

/** Path of the Bible's index file: `${dataDir}/pastor.sqlite`. */
export function bibleStoreFile(dataDir: string): string {
  return path.join(dataDir, "pastor.sqlite");
}
