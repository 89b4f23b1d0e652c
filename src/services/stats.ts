/** The dashboard counters from admin_stats() (admins only; the function checks it). */
import { getSupabase } from './supabase';

export interface DashboardStats {
  totalUsers: number;
  activeConversations: number;
  documentsProcessed: number;
  /** Average 1–5 rating, or null when no conversation has been rated. */
  averageRating: number | null;
  /** Percent change of conversations started this month against last month; null without last month's data. */
  conversationGrowth: number | null;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export async function fetchStats(): Promise<DashboardStats> {
  const { data, error } = await getSupabase().rpc('admin_stats');
  if (error) throw new Error(`Failed to load statistics: ${error.message}`);
  const row = typeof data === 'object' && data !== null && !Array.isArray(data) ? data : {};
  return {
    totalUsers: numberOrNull(row.totalUsers) ?? 0,
    activeConversations: numberOrNull(row.activeConversations) ?? 0,
    documentsProcessed: numberOrNull(row.documentsProcessed) ?? 0,
    averageRating: numberOrNull(row.averageRating),
    conversationGrowth: numberOrNull(row.conversationGrowth),
  };
}
