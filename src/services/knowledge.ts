/** What the coach would be given for a question: the ranked passages from search_knowledge(). */
import { DocumentError, documentMessages } from './documents';
import { getSupabase } from './supabase';

export interface KnowledgePassage {
  documentId: string;
  documentTitle: string;
  ordinal: number;
  content: string;
  /** The search's relevance score, 0..1: the weighted share of the question's terms found. */
  score: number;
  /** The question's terms (as stemmed by the search) the passage contains. */
  matchedTerms: string[];
}

/** At most five passages, as the coach gets them (the seed's knowledge search limit). */
export async function searchKnowledge(query: string, limit = 5): Promise<KnowledgePassage[]> {
  const { data, error } = await getSupabase().rpc('search_knowledge', { query, match_count: limit });
  if (error) throw new DocumentError(documentMessages.search, error.message);
  return data.map((row) => ({
    documentId: row.document_id,
    documentTitle: row.document_title,
    ordinal: row.chunk_ordinal,
    content: row.content,
    score: row.rank,
    matchedTerms: row.matched_terms,
  }));
}
