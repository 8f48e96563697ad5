import type { ChatTurn, GenerateRequest, LlmProvider } from "../core/chat/llm.js";

/**
 * A cautious token estimate without a tokenizer: about 3 characters a token (Portuguese runs
 * nearer 4 with the common BPE vocabularies, so this over-counts), plus a few per message.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

const PER_MESSAGE_TOKENS = 4;

export function estimatePromptTokens(system: string, messages: readonly ChatTurn[]): number {
  return messages.reduce((sum, message) => sum + estimateTokens(message.content) + PER_MESSAGE_TOKENS, estimateTokens(system));
}

/**
 * Keeps the whole prompt (system + messages) within `maxTokens` (estimated) by dropping the
 * oldest history turns. The last message, the question with its sources, is always kept:
 * it is bounded by the message limit and TOP_K.
 */
export function fitPrompt(system: string, messages: readonly ChatTurn[], maxTokens: number): ChatTurn[] {
  const kept = [...messages];
  let tokens = estimatePromptTokens(system, kept);
  if (tokens <= maxTokens) return kept;
  while (tokens > maxTokens && kept.length > 1) {
    const dropped = kept.shift()!;
    tokens -= estimateTokens(dropped.content) + PER_MESSAGE_TOKENS;
  }
  // A cut history that now starts with the model's turn would read oddly: start with the user's.
  while (kept.length > 1 && kept[0]!.role === "assistant") kept.shift();
  return kept;
}

/** The provider with every request's prompt fitted to `maxTokens`. */
export function withPromptBudget(provider: LlmProvider, maxTokens: number): LlmProvider {
  return {
    id: provider.id,
    model: provider.model,
    stream: (request: GenerateRequest) => provider.stream({ ...request, messages: fitPrompt(request.system, request.messages, maxTokens) }),
  };
}
