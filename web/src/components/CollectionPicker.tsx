import { useId } from "react";
import { BIBLE_COLLECTION, type CollectionStatus } from "../lib/api";
import { formatNumber } from "../lib/status-text";

/** The label of a collection in "Consultar": "exemplo — 4 documentos", or "exemplo (vazia)". */
export function collectionOptionLabel(collection: CollectionStatus): string {
  if (collection.chunks === 0) return `${collection.name} (vazia)`;
  const documents = collection.documents === 1 ? "1 documento" : `${formatNumber(collection.documents)} documentos`;
  return `${collection.name} — ${documents}`;
}

/**
 * "Consultar": what the questions are asked of, the Bible or one of the document collections,
 * a compact list at the start of the question box. An empty collection is listed but cannot
 * be chosen. Changing it starts a new conversation (the note says so; the one left stays in
 * the list of conversations, with "Desfazer"), so that one conversation never mixes the Bible
 * and a collection.
 */
export function CollectionPicker(props: {
  collections: readonly CollectionStatus[];
  value: string;
  onChange(name: string): void;
  disabled?: boolean;
}) {
  const { collections, value, onChange, disabled = false } = props;
  const id = useId();
  const noteId = `${id}-nota`;
  return (
    <div className="collection-picker">
      <label htmlFor={id} className="visually-hidden">
        Consultar
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} disabled={disabled} aria-describedby={noteId}>
        <option value={BIBLE_COLLECTION}>Bíblia</option>
        {collections.map((collection) => (
          <option key={collection.name} value={collection.name} disabled={collection.chunks === 0}>
            {collectionOptionLabel(collection)}
          </option>
        ))}
      </select>
      <span id={noteId} className="visually-hidden">
        Trocar começa uma nova conversa; a atual fica na lista de conversas.
      </span>
    </div>
  );
}
