/**
 * Admin only: embeds the knowledge base's passages that have no embedding yet, for the hybrid
 * search. `POST /embed` embeds up to EMBED_LIMIT passages (in batches of 64) and answers
 * `{ enabled, embedded, pending }`; `GET /embed` only counts (`{ enabled, embedded: 0, pending }`).
 * The admin's browser calls it after each processed upload, so documents processed before a key
 * was set are embedded with the next upload, or with "Einbettungen erstellen" in the system
 * settings. Without OPENAI_API_KEY it embeds nothing and says so (`enabled: false`); the search is
 * then full-text only. A failure leaves what was stored stored: the next call goes on.
 *
 * Each batch reserves its upper bound against the day's cap of embedding tokens
 * (SPEND_CAP_EMBEDDING_TOKENS, a cap of its own, so re-reading documents never uses up what the
 * visitors' questions need) and settles what OpenAI reports. Admins have no budget of their own:
 * the cap alone bounds them. At the cap the call stops; if it embedded nothing it answers 503
 * `spend_cap_reached`, and the passages wait for the next day.
 */
import { refuseUnlessAdmin } from '../_shared/adminOnly.ts';
import { withAllowedOrigin } from '../_shared/cors.ts';
import { EMBEDDING_BATCH, EmbeddingError, embeddingProvider, embedTexts, metered, vectorLiteral } from '../_shared/embeddings.ts';
import { spendCaps } from '../_shared/spendSettings.ts';
import { createSpending, type Budget } from '../_shared/spending.ts';
import { errorResponse, json } from '../_shared/http.ts';
import { serviceClient, type ServiceClient } from '../_shared/supabase.ts';
import { textTokenBound } from '../_shared/tokenBounds.ts';

/** The spend of all admins' embedding requests: one client whose budget is the whole cap. */
const EMBEDDING_CLIENT = 'admins:embed';

/** Passages embedded per call at most, so one call stays well within a function's time limit. */
export const EMBED_LIMIT = 640;

interface PendingPassage {
  document_id: string;
  ordinal: number;
  content: string;
}

async function pendingCount(supabase: ServiceClient): Promise<number> {
  const { count, error, status } = await supabase
    .from('document_chunks')
    .select('id', { count: 'exact', head: true })
    .is('embedding', null)
    .retry(false); // see NO_READ_RETRIES in ../_shared/supabase.ts
  if (error) throw new Error(`counting passages: HTTP ${String(status)}`);
  return count ?? 0;
}

async function nextBatch(supabase: ServiceClient): Promise<PendingPassage[]> {
  const { data: rows } = await supabase
    .from('document_chunks')
    .select('document_id,ordinal,content')
    .is('embedding', null)
    .order('id', { ascending: true })
    .limit(EMBEDDING_BATCH)
    .retry(false)
    .throwOnError();
  return rows;
}

async function embedPending(env: Record<string, string>): Promise<Response> {
  const supabase = serviceClient(env);
  const provider = embeddingProvider(env);
  if (provider === null) return json(200, { enabled: false, embedded: 0, pending: await pendingCount(supabase) });
  const cap = spendCaps(env).embedding_tokens;
  const budgets: Budget[] = [{ scope: 'client', key: EMBEDDING_CLIENT, budget: cap }];
  let embedded = 0;
  try {
    while (embedded < EMBED_LIMIT) {
      const batch = await nextBatch(supabase);
      if (batch.length === 0) break;
      const texts = batch.map((passage) => passage.content);
      const spending = createSpending(supabase, { fn: 'embed', kind: 'embedding_tokens', cap, budgets }, null);
      if (!(await spending.reserveMore(texts.reduce((sum, text) => sum + textTokenBound(text), 0)))) {
        if (embedded > 0) break;
        return errorResponse(503, 'Das Tageslimit der Einbettungen ist erreicht. Die übrigen Passagen werden morgen eingebettet.', 'spend_cap_reached');
      }
      const billed = metered(provider);
      const vectors = await embedTexts(billed, texts).finally(() => spending.settle(billed.meter.tokens));
      const items = batch.map((passage, index) => ({
        document_id: passage.document_id,
        ordinal: passage.ordinal,
        embedding: vectorLiteral(vectors[index] ?? []),
      }));
      const { data: written } = await supabase.rpc('store_passage_embeddings', { items }).throwOnError();
      embedded += written;
      // A passage that could not be written (its document was processed again meanwhile) must not
      // be fetched forever.
      if (written !== batch.length) break;
    }
  } catch (error) {
    const detail = error instanceof EmbeddingError ? error.message : 'storing failed';
    console.error('[embed]', detail);
    return errorResponse(502, 'Die Einbettungen konnten nicht erstellt werden.', 'embedding_error');
  }
  return json(200, { enabled: true, embedded, pending: await pendingCount(supabase) });
}

export async function handle(request: Request, env: Record<string, string>): Promise<Response> {
  return withAllowedOrigin(request, env, await respond(request, env));
}

async function respond(request: Request, env: Record<string, string>): Promise<Response> {
  const refused = await refuseUnlessAdmin(request, env);
  if (refused) return refused;
  if (new URL(request.url).pathname.replace(/\/+$/, '') !== '/embed') return errorResponse(404, 'Not found', 'not_found');
  if (request.method === 'GET') {
    return json(200, { enabled: embeddingProvider(env) !== null, embedded: 0, pending: await pendingCount(serviceClient(env)) });
  }
  if (request.method !== 'POST') return errorResponse(405, 'Method not allowed', 'method_not_allowed', { Allow: 'GET, POST, OPTIONS' });
  return embedPending(env);
}
