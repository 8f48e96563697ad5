/** An error about one document collection: a stable code, the collection, and a user-facing (Portuguese) message. */
export class CollectionError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    readonly collection: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A collection asked for by name that is not there; the message names the ones there are. */
export class CollectionNotFoundError extends Error {
  readonly code = "collection_not_found";
  constructor(
    readonly collection: string,
    available: readonly string[],
  ) {
    super(
      `Coleção "${collection}" não encontrada.${available.length > 0 ? ` Coleções disponíveis: ${available.join(", ")}.` : " Nenhuma coleção configurada."}`,
    );
    this.name = "CollectionNotFoundError";
  }
}
