/**
 * The admin-only `embed` function: passages of the knowledge base that wait for an embedding (the
 * hybrid search with OPENAI_API_KEY), and embedding them. Without the key the function embeds
 * nothing and says so (`enabled: false`). Failures reject with FunctionCallError.
 */
import { callFunctionJson } from './edgeFunctions';

export interface EmbeddingStatus {
  /** Whether the server has a language model key, i.e. whether the search is hybrid. */
  enabled: boolean;
  /** Passages embedded by this call (0 for the status alone). */
  embedded: number;
  /** Passages still without an embedding. */
  pending: number;
}

async function call(accessToken: string, method: 'GET' | 'POST'): Promise<EmbeddingStatus> {
  const body = await callFunctionJson('embed', { method, accessToken });
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  return { enabled: body.enabled === true, embedded: count(body.embedded), pending: count(body.pending) };
}

export const fetchEmbeddingStatus = (accessToken: string) => call(accessToken, 'GET');

/** Embeds the passages waiting for an embedding (up to a few hundred per call). */
export const embedPendingPassages = (accessToken: string) => call(accessToken, 'POST');
