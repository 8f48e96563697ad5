/**
 * The passages a question about the assistant is answered with, when some fit: it cannot pray,
 * but the Bible tells people to pray for one another and to ask others to; it is no pastor nor
 * church, and the Bible speaks of the church meeting and its pastors; it cannot be a friend,
 * and the Bible speaks of bearing one another's burdens; it can err, and the Bible praises those who
 * examine what they hear; it cannot hear a confession, and the Bible tells people to confess to God
 * and to one another. Resolved by reference, like the
 * passages of consolation (`core/grounding/care-passages.ts`): what a pastor would read here,
 * chosen for the project and checked in the Bíblia Livre; none for what it is or its own life.
 */
import type { AssistantTopic } from "./kinds.js";

export const ASSISTANT_PASSAGES: Readonly<Record<AssistantTopic, readonly string[]>> = {
  identity: [],
  own_life: [],
  prayer: ["Tiago 5:16", "Filipenses 4:6", "Mateus 6:6", "Hebreus 4:16"],
  belief: ["Romanos 10:9", "Romanos 10:17", "Hebreus 11:6"],
  role: ["Efésios 4:11-12", "Hebreus 13:17", "1 Pedro 5:2", "Atos 2:42"],
  church: ["Hebreus 10:24-25", "Atos 2:42", "Atos 2:46", "1 Coríntios 12:27"],
  only_you: ["Gálatas 6:2", "Eclesiastes 4:9-10", "Romanos 12:15", "Salmos 34:18"],
  trust: ["Atos 17:11", "1 Tessalonicenses 5:21", "1 João 4:1"],
  confession: ["1 João 1:9", "Salmos 32:5", "Provérbios 28:13", "Tiago 5:16"],
};

/** The passages of a topic as one query of references (the engine resolves them by metadata, in this order). */
export function assistantPassagesQuery(topic: AssistantTopic): string {
  return ASSISTANT_PASSAGES[topic].join("; ");
}
