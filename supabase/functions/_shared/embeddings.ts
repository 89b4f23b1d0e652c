/**
 * Embeddings for the knowledge base's hybrid search: OpenAI's `POST /embeddings` (any compatible
 * server through OPENAI_BASE_URL) with `text-embedding-3-small` (OPENAI_EMBEDDING_MODEL), whose
 * 1536 dimensions the `document_chunks.embedding` column has. Without OPENAI_API_KEY there are no
 * embeddings and the search is full-text only.
 */
import { isRecord } from './http.ts';
import { textTokenBound } from './tokenBounds.ts';

export const EMBEDDING_DIMENSIONS = 1536;
export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';
/** Inputs per request: well under the API's 2048, so one request stays small and quick. */
export const EMBEDDING_BATCH = 64;
/** How long one embeddings request may take (a batch of 64 passages takes a second or two). */
export const EMBEDDING_TIMEOUT_MS = 30_000;

export interface EmbeddingProvider {
  apiKey: string;
  baseUrl: string;
  model: string;
  /** Adds up the tokens every request through this provider is billed (see embedTexts). */
  meter?: { tokens: number };
}

/** The provider with a fresh meter, for one request's bookkeeping. */
export function metered(provider: EmbeddingProvider): EmbeddingProvider & { meter: { tokens: number } } {
  return { ...provider, meter: { tokens: 0 } };
}

/** `usage.total_tokens` of an embeddings answer, or null when it reports none. */
function reportedTokens(body: unknown): number | null {
  const tokens = isRecord(body) && isRecord(body.usage) ? body.usage.total_tokens : undefined;
  return typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 0 ? tokens : null;
}

export function embeddingProvider(env: Record<string, string>): EmbeddingProvider | null {
  const apiKey = env.OPENAI_API_KEY?.trim() ?? '';
  if (apiKey === '') return null;
  const baseUrl = (env.OPENAI_BASE_URL?.trim() || 'https://api.openai.com/v1').replace(/\/+$/u, '');
  return { apiKey, baseUrl, model: env.OPENAI_EMBEDDING_MODEL?.trim() || DEFAULT_EMBEDDING_MODEL };
}

export class EmbeddingError extends Error {}

/**
 * The embeddings of `texts`, in order, each with EMBEDDING_DIMENSIONS numbers; throws
 * EmbeddingError. The provider's meter counts what the request is billed: the answer's
 * `usage.total_tokens`, else the texts' upper bound (tokenBounds.ts) once the request may have
 * reached the provider (also when it was aborted or the connection failed), nothing when the
 * provider refused it with an error status.
 */
export async function embedTexts(provider: EmbeddingProvider, texts: readonly string[], given?: AbortSignal): Promise<number[][]> {
  const bound = texts.reduce((sum, text) => sum + textTokenBound(text), 0);
  // Never longer than EMBEDDING_TIMEOUT_MS, whatever the caller's own deadline.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), EMBEDDING_TIMEOUT_MS);
  const signal = given ? AbortSignal.any([given, deadline.signal]) : deadline.signal;
  try {
    return await embedWithin(provider, texts, bound, signal);
  } finally {
    clearTimeout(timer);
  }
}

async function embedWithin(provider: EmbeddingProvider, texts: readonly string[], bound: number, signal: AbortSignal): Promise<number[][]> {
  const bill = (tokens: number) => {
    if (provider.meter) provider.meter.tokens += tokens;
  };
  let response: Response;
  try {
    response = await fetch(`${provider.baseUrl}/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${provider.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: provider.model, input: texts }),
      signal,
    });
  } catch (error) {
    bill(bound);
    throw new EmbeddingError(signal.aborted ? 'no answer in time' : `network error: ${String(error)}`);
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) bill(reportedTokens(body) ?? bound);
  if (!response.ok) {
    const detail = isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string' ? body.error.message : '';
    throw new EmbeddingError(`HTTP ${String(response.status)} ${detail}`.trim());
  }
  const data = isRecord(body) && Array.isArray(body.data) ? body.data : null;
  if (data?.length !== texts.length) throw new EmbeddingError('the answer does not hold one embedding per text');
  const vectors: number[][] = new Array<number[]>(texts.length);
  for (const item of data) {
    const index = isRecord(item) && typeof item.index === 'number' ? item.index : -1;
    const values = isRecord(item) && Array.isArray(item.embedding) ? item.embedding : [];
    if (index < 0 || index >= texts.length || values.length !== EMBEDDING_DIMENSIONS || !values.every((value) => typeof value === 'number')) {
      throw new EmbeddingError(`expected embeddings of ${String(EMBEDDING_DIMENSIONS)} numbers (model ${provider.model})`);
    }
    vectors[index] = values;
  }
  return vectors;
}

/** pgvector's text form of an embedding, as the database takes it through PostgREST. */
export const vectorLiteral = (values: readonly number[]): string => `[${values.join(',')}]`;
