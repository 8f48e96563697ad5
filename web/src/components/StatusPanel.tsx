import type { CollectionStatus, ServerStatus } from "../lib/api";
import {
  chatAvailability,
  collectionCounts,
  collectionReloadText,
  collectionSearchText,
  embeddingText,
  formatNumber,
  indexSummary,
  lastReloadText,
  llmText,
  progressCount,
  progressFraction,
} from "../lib/status-text";

/** The server's state in plain Portuguese: the index (with live progress), the search, the answers, problems. */
export function StatusPanel({ status, unreachable }: { status: ServerStatus | undefined; unreachable: boolean }) {
  if (!status) {
    return (
      <div className="status">
        <h2 id="status-title">Situação do serviço</h2>
        {unreachable ? (
          <p className="notice error">O servidor não está respondendo. Tentando de novo…</p>
        ) : (
          <p className="muted">Consultando o servidor…</p>
        )}
      </div>
    );
  }
  const fraction = progressFraction(status.progress);
  const count = progressCount(status.progress);
  const availability = chatAvailability(status);
  const search = embeddingText(status);
  const llm = llmText(status);
  return (
    <div className="status">
      <h2 id="status-title">Situação do serviço</h2>
      {unreachable && <p className="notice error">O servidor parou de responder. Tentando de novo…</p>}
      <dl className="status-list">
        <div>
          <dt>Índice da Bíblia</dt>
          <dd>
            <span className="status-line" data-testid="index-status">
              {status.indexing && <span className="spinner" aria-hidden="true" />}
              {indexSummary(status)}
            </span>
            {status.indexing && count !== "" && <span className="status-count">{count}</span>}
            {status.indexing && fraction !== undefined && (
              <progress max={100} value={Math.round(fraction * 100)} aria-label="Progresso da indexação">
                {Math.round(fraction * 100)}%
              </progress>
            )}
            {status.indexing && status.versesIndexed > 0 && (
              <span className="status-detail">{formatNumber(status.versesIndexed)} versículos já disponíveis para busca.</span>
            )}
            {availability !== "" && <span className="status-detail">{availability}</span>}
          </dd>
        </div>
        <div>
          <dt>Busca</dt>
          <dd>
            <span className="status-line">{search.title}</span>
            {search.detail !== "" && (
              <span className="status-detail" title={search.model}>
                {search.detail}
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>Respostas</dt>
          <dd>
            <span className="status-line">{llm.title}</span>
            {llm.detail !== "" && <span className="status-detail">{llm.detail}</span>}
          </dd>
        </div>
        {status.collections && status.collections.length > 0 && (
          <div>
            <dt>Coleções</dt>
            <dd>
              <ul className="status-collections" aria-label="Coleções de documentos">
                {status.collections.map((collection) => (
                  <CollectionItem key={collection.name} collection={collection} />
                ))}
              </ul>
            </dd>
          </div>
        )}
        {status.errors.length > 0 && (
          <div>
            <dt>Problemas</dt>
            <dd>
              <ul className="status-errors">
                {status.errors.map((error, index) => (
                  <li key={index}>
                    {error.file ? `${error.file}: ` : ""}
                    {error.message}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        )}
      </dl>
    </div>
  );
}

function CollectionItem({ collection }: { collection: CollectionStatus }) {
  return (
    <li className="status-collection" data-collection={collection.name}>
      <span className="status-line">
        {collection.reloading && <span className="spinner" aria-hidden="true" />}
        <strong>{collection.name}</strong>
        {collection.reloading && <span className="status-count"> {collectionReloadText(collection)}</span>}
      </span>
      <span className="status-detail">{collectionCounts(collection)}</span>
      <span className="status-detail">{collectionSearchText(collection)}</span>
      <span className="status-detail">{lastReloadText(collection)}</span>
      {collection.error && <span className="status-detail status-error">Erro na última recarga: {collection.error.message}</span>}
    </li>
  );
}
