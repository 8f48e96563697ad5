import type { AnySourceJson as SourceJson } from "../app/chat/grounded-answer.js";

/**
 * The passages consulted for the last answer of each conversation (what /api/sources
 * returns). Per conversation id, never global, so two users never see each other's sources.
 * Bounded: the least recently used conversations are forgotten past `capacity`.
 */
export class ConversationSources {
  private readonly entries = new Map<string, { sources: SourceJson[]; citations: string[]; at: string }>();

  constructor(private readonly capacity = 1000) {}

  set(conversationId: string, sources: SourceJson[]): void {
    this.entries.delete(conversationId);
    this.entries.set(conversationId, { sources, citations: [], at: new Date().toISOString() });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  markCited(conversationId: string, citations: string[]): void {
    const entry = this.entries.get(conversationId);
    if (entry) entry.citations = citations;
  }

  get(conversationId: string): { sources: SourceJson[]; citations: string[]; at: string } | undefined {
    return this.entries.get(conversationId);
  }
}
