/**
 * The coach's knowledge: passages of COMPLETED documents that match the visitor's latest message,
 * found by the database's German full-text search (`search_knowledge`) with the service role,
 * since visitors may not read the knowledge base themselves.
 */
import { isRecord } from '../_shared/http.ts';
import { rpc, type SupabaseEnv } from '../_shared/supabase.ts';

/** The seed's limit: at most five documents' worth of knowledge per question. */
export const MATCH_COUNT = 5;

export const KNOWLEDGE_INTRO = 'Wissen aus der Wissensdatenbank (nutze es für deine Antwort):';

/** The passages' texts, best first. */
export async function searchPassages(supabase: SupabaseEnv, question: string): Promise<string[]> {
  const rows = await rpc(supabase, 'search_knowledge', { query: question, match_count: MATCH_COUNT });
  if (!Array.isArray(rows)) return [];
  return rows
    .map((row: unknown) => (isRecord(row) && typeof row.content === 'string' ? row.content.trim() : ''))
    .filter((content) => content !== '');
}

/** The second system message: one German intro line, then the passages separated by blank lines. */
export function knowledgeMessage(passages: string[]): string | null {
  if (passages.length === 0) return null;
  return `${KNOWLEDGE_INTRO}\n\n${passages.join('\n\n')}`;
}
