/**
 * The admin-only `embed` function: passages of the knowledge base that wait for an embedding (the
 * hybrid search with OPENAI_API_KEY), and embedding them. Without the key the function embeds
 * nothing and says so (`enabled: false`).
 */
import { env } from '../config/env';
import { functionUrl } from './functionsUrl';

export interface EmbeddingStatus {
  /** Whether the server has a language model key, i.e. whether the search is hybrid. */
  enabled: boolean;
  /** Passages embedded by this call (0 for the status alone). */
  embedded: number;
  /** Passages still without an embedding. */
  pending: number;
}

export class EmbeddingRequestError extends Error {
  constructor(readonly status: number) {
    super(`embed answered ${String(status)}`);
  }
}

async function call(accessToken: string, method: 'GET' | 'POST'): Promise<EmbeddingStatus> {
  const response = await fetch(functionUrl('embed'), {
    method,
    headers: { authorization: `Bearer ${accessToken}`, apikey: env.VITE_SUPABASE_ANON_KEY },
  });
  if (!response.ok) throw new EmbeddingRequestError(response.status);
  const body = (await response.json()) as Record<string, unknown>;
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  return { enabled: body.enabled === true, embedded: count(body.embedded), pending: count(body.pending) };
}

export const fetchEmbeddingStatus = (accessToken: string) => call(accessToken, 'GET');

/** Embeds the passages waiting for an embedding (up to a few hundred per call). */
export const embedPendingPassages = (accessToken: string) => call(accessToken, 'POST');
