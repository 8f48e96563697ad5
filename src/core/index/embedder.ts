/**
 * The dense side's specification type. Implementations live in src/adapters/index
 * (transformers.js) and src/core/index (the corpus-trained offline model).
 */
export type EmbedKind = "query" | "document";

export interface Embedder {
  /** Stable identity of the model and its settings; stored in the index manifest. */
  readonly id: string;
  readonly dimensions: number;
  /** Embeds a batch; every returned vector is L2-normalised and has `dimensions` entries. */
  embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]>;
}
