/**
 * Upper bounds of what a language model bills for a text, for reserving spend before a request
 * and for settling it when the provider reports no usage. The tokenizers of OpenAI's models and
 * of the usual open models (Llama, Mistral, Qwen through Ollama, vLLM) are byte-level: every token
 * covers at least one byte of the UTF-8 text, so a text never costs more tokens than it has bytes.
 * That is never less than one token per UTF-16 unit, and unlike a UTF-16 count it also holds for
 * scripts whose characters a tokenizer splits into several tokens (a Chinese character is three
 * bytes and can be three tokens).
 */

const encoder = new TextEncoder();

/** Tokens of `text` at most: its UTF-8 bytes. */
export function textTokenBound(text: string): number {
  return encoder.encode(text).length;
}

/**
 * The chat format's own tokens: each message is framed by a start token, its role and an end
 * token (OpenAI counts 3 to 4 per message), and the reply is primed with 3 more.
 */
export const TOKENS_PER_MESSAGE = 4;
export const TOKENS_PER_REPLY = 3;

/** Prompt tokens of a chat request at most. */
export function promptTokenBound(messages: readonly { content: string }[]): number {
  return messages.reduce((sum, message) => sum + textTokenBound(message.content) + TOKENS_PER_MESSAGE, TOKENS_PER_REPLY);
}
