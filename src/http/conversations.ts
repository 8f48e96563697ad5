import type { AnySourceJson as SourceJson } from "../app/chat/grounded-answer.js";

/**
 * The passages consulted for the last answer of each conversation (what /api/sources
 * returns). Per conversation id, never global, so two users never see each other's sources.
 * Bounded twice: the least recently used conversations are forgotten past `capacity`
 * conversations, and past `maxChars` characters of source text held in all (each source is
 * already bounded: a passage is at most MAX_CHUNK_CHARS, see core/grounding/document-passages.ts),
 * so the record cannot grow with the documents' size.
 */
export class ConversationSources {
  private readonly entries = new Map<string, { sources: SourceJson[]; citations: string[]; at: string; chars: number }>();
  private chars = 0;

  constructor(
    private readonly capacity = 1000,
    private readonly maxChars = 16_000_000,
  ) {}

  set(conversationId: string, sources: SourceJson[]): void {
    this.forget(conversationId);
    const chars = sourceChars(sources);
    this.entries.set(conversationId, { sources, citations: [], at: new Date().toISOString(), chars });
    this.chars += chars;
    // The newest entry stays even alone past maxChars: its sources are bounded by TOP_K and the passage bound.
    while (this.entries.size > this.capacity || (this.chars > this.maxChars && this.entries.size > 1)) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.forget(oldest);
    }
  }

  markCited(conversationId: string, citations: string[]): void {
    const entry = this.entries.get(conversationId);
    if (entry) entry.citations = citations;
  }

  get(conversationId: string): { sources: SourceJson[]; citations: string[]; at: string } | undefined {
    const entry = this.entries.get(conversationId);
    return entry && { sources: entry.sources, citations: entry.citations, at: entry.at };
  }

  /** Characters of source text held, in all conversations. */
  heldChars(): number {
    return this.chars;
  }

  private forget(conversationId: string): void {
    const entry = this.entries.get(conversationId);
    if (!entry) return;
    this.chars -= entry.chars;
    this.entries.delete(conversationId);
  }
}

/** The text a conversation's sources hold: their texts, titles and citations. */
function sourceChars(sources: readonly SourceJson[]): number {
  let chars = 0;
  for (const source of sources) {
    chars += source.text.length + ("citation" in source ? source.citation.length + source.title.length : source.reference.length);
  }
  return chars;
}
