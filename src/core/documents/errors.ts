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
