export type IndexPhase = "scanning" | "lexical" | "training" | "dense" | "done";

/** How far an index run is: the Bible's (`indexCorpus`) and a document collection's (`reloadCollection`). */
export interface IndexProgress {
  phase: IndexPhase;
  /** Done / total in the current phase (lexical: verses, or documents, written; dense: vectors). */
  done: number;
  total: number;
  /** What `done` and `total` count; absent: verses. */
  counts?: "documents" | "chunks";
  source?: string;
}
