import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { AnySourceJson as SourceJson } from "../app/chat/grounded-answer.js";

/**
 * Conversation ids the server issues, so that nobody can pick or guess another's: 128 random
 * bits and an HMAC-SHA-256 tag of them (128 bits) under a secret drawn when the process
 * starts, both base64url (44 characters of `[A-Za-z0-9_-]`). The tag proves the id was issued
 * here without keeping a list; a restart (a new secret) makes earlier ids unknown, as the
 * sources kept for them are gone too.
 */
export class ConversationIds {
  private static readonly NONCE_BYTES = 16;
  private static readonly TAG_BYTES = 16;
  private readonly secret = randomBytes(32);

  issue(): string {
    const nonce = randomBytes(ConversationIds.NONCE_BYTES);
    return nonce.toString("base64url") + this.tag(nonce).toString("base64url");
  }

  /** Whether `id` is one this process issued. */
  issued(id: string): boolean {
    const nonceChars = Math.ceil((ConversationIds.NONCE_BYTES * 4) / 3);
    const tagChars = Math.ceil((ConversationIds.TAG_BYTES * 4) / 3);
    if (id.length !== nonceChars + tagChars || !/^[A-Za-z0-9_-]+$/.test(id)) return false;
    const nonce = Buffer.from(id.slice(0, nonceChars), "base64url");
    const given = Buffer.from(id.slice(nonceChars), "base64url");
    // A base64url text decodes back to itself only in its one canonical spelling.
    if (nonce.toString("base64url") + given.toString("base64url") !== id || given.length !== ConversationIds.TAG_BYTES) return false;
    return timingSafeEqual(given, this.tag(nonce));
  }

  private tag(nonce: Buffer): Buffer {
    return createHmac("sha256", this.secret).update(nonce).digest().subarray(0, ConversationIds.TAG_BYTES);
  }
}

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
