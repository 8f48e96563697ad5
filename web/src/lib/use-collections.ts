import { useEffect, useState } from "react";
import { BIBLE_COLLECTION, fetchCollections, type CollectionStatus } from "./api";

/**
 * The document collections the server offers (GET /api/collections, asked once), kept fresh by
 * the status polls (`fromStatus`, the `collections` of /api/status). Undefined while unknown or
 * when the server cannot say (an older server answers 404): then only the Bible is offered.
 */
export function useCollections(fromStatus: CollectionStatus[] | undefined): CollectionStatus[] | undefined {
  const [fetched, setFetched] = useState<CollectionStatus[] | undefined>();
  useEffect(() => {
    const controller = new AbortController();
    fetchCollections(controller.signal).then(
      (response) => {
        if (!controller.signal.aborted) setFetched(response.collections.filter((collection) => collection.name !== BIBLE_COLLECTION));
      },
      () => undefined,
    );
    return () => controller.abort();
  }, []);
  if (fetched === undefined) return undefined;
  return Array.isArray(fromStatus) ? fromStatus.filter((collection) => collection.name !== BIBLE_COLLECTION) : fetched;
}

/** A collection can be asked once it has chunks; the Bible always can (its own readiness shows in the status). */
export function isAskable(name: string, collections: readonly CollectionStatus[] | undefined): boolean {
  if (name === BIBLE_COLLECTION) return true;
  return collections?.some((collection) => collection.name === name && collection.chunks > 0) ?? false;
}

/** What the questions go to: the chosen collection when it can be asked, the Bible otherwise. */
export function effectiveCollection(choice: string, collections: readonly CollectionStatus[] | undefined): string {
  return isAskable(choice, collections) ? choice : BIBLE_COLLECTION;
}
