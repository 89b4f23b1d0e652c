/**
 * "Offene Fragen": what visitors asked that the knowledge base could not answer (kept by the coach
 * function, scrubbed, counted), the live list for the admin, dismissing one ("Erledigt"),
 * deleting all, the dashboard's count of the last 7 days and the recording switch
 * (`system_settings`). Row level security lets admins only; a refused change of the switch changes
 * no row and is reported as a failure.
 */
import { REALTIME_SUBSCRIBE_STATES, type RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import type { Database } from '../types/database';
import { getSupabase } from './supabase';

type OpenQuestionRow = Database['public']['Tables']['open_questions']['Row'];
export type OpenQuestion = Omit<OpenQuestionRow, 'lexemes'>;

/** What went wrong, for the admin's notice (the UI words it). */
export class OpenQuestionsError extends Error {
  constructor(
    readonly action: 'load' | 'dismiss' | 'clear' | 'count' | 'setting',
    detail: string,
  ) {
    super(`open questions: ${action} failed: ${detail}`);
  }
}

const columns = 'id, question, ask_count, first_asked_at, last_asked_at, answered_by, answered_title, answered_at';

/** Most asked first, then the most recently asked (the tab's order). */
export function byAskedOften(a: OpenQuestion, b: OpenQuestion): number {
  return b.ask_count - a.ask_count || Date.parse(b.last_asked_at) - Date.parse(a.last_asked_at);
}

export async function listOpenQuestions(): Promise<OpenQuestion[]> {
  const { data, error } = await getSupabase()
    .from('open_questions')
    .select(columns)
    .order('ask_count', { ascending: false })
    .order('last_asked_at', { ascending: false });
  if (error) throw new OpenQuestionsError('load', error.message);
  return data;
}

export type OpenQuestionChange = { type: 'INSERT' | 'UPDATE'; question: OpenQuestion } | { type: 'DELETE'; id: string };

function toQuestion(row: Partial<OpenQuestionRow>): OpenQuestion | null {
  const { id, question, ask_count: askCount, first_asked_at: first, last_asked_at: last } = row;
  if (typeof id !== 'string' || typeof question !== 'string' || typeof askCount !== 'number' || typeof first !== 'string' || typeof last !== 'string') {
    return null;
  }
  return {
    id,
    question,
    ask_count: askCount,
    first_asked_at: first,
    last_asked_at: last,
    answered_by: row.answered_by ?? null,
    answered_title: row.answered_title ?? null,
    answered_at: row.answered_at ?? null,
  };
}

/** Follows the open questions live (channel open_question_changes); `onStatus` hears whether it stands. */
export function subscribeToOpenQuestions(
  onChange: (change: OpenQuestionChange) => void,
  onStatus: (subscribed: boolean) => void = () => undefined,
): () => void {
  const supabase = getSupabase();
  const channel = supabase
    .channel('open_question_changes')
    .on('postgres_changes', { event: '*', schema: 'public', table: 'open_questions' }, (payload: RealtimePostgresChangesPayload<OpenQuestionRow>) => {
      if (payload.eventType === 'DELETE') {
        if (typeof payload.old.id === 'string') onChange({ type: 'DELETE', id: payload.old.id });
        return;
      }
      const question = toQuestion(payload.new);
      if (question) onChange({ type: payload.eventType, question });
    })
    .subscribe((status) => onStatus(status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED));
  return () => {
    void supabase.removeChannel(channel);
  };
}

/**
 * "Erledigt": the question leaves the list (asked again, it comes back, counted from one). A
 * question already gone (dismissed in another tab, past its retention) counts as dismissed.
 */
export async function dismissOpenQuestion(id: string): Promise<void> {
  const { error } = await getSupabase().from('open_questions').delete().eq('id', id);
  if (error) throw new OpenQuestionsError('dismiss', error.message);
}

/** "Alle löschen": every open question; returns how many. */
export async function clearOpenQuestions(): Promise<number> {
  const { data, error } = await getSupabase().rpc('clear_open_questions');
  if (error) throw new OpenQuestionsError('clear', error.message);
  return data;
}

export const RECENT_DAYS = 7;

/** Open questions (not answered since) asked in the last RECENT_DAYS days: the dashboard's counter. */
export async function countRecentOpenQuestions(now: number = Date.now()): Promise<number> {
  const since = new Date(now - RECENT_DAYS * 24 * 60 * 60 * 1000).toISOString();
  const { count, error } = await getSupabase()
    .from('open_questions')
    .select('id', { count: 'exact', head: true })
    .gte('last_asked_at', since)
    .is('answered_by', null);
  if (error) throw new OpenQuestionsError('count', error.message);
  return count ?? 0;
}

/** Whether questions are being recorded (the switch in Systemeinstellungen). */
export async function loadRecording(): Promise<boolean> {
  const { data, error } = await getSupabase().from('system_settings').select('record_open_questions').maybeSingle();
  if (error) throw new OpenQuestionsError('setting', error.message);
  if (data === null) throw new OpenQuestionsError('setting', 'no settings row visible');
  return data.record_open_questions;
}

/** Turns recording on or off; nothing kept is deleted. */
export async function saveRecording(on: boolean): Promise<void> {
  const { data, error } = await getSupabase().from('system_settings').update({ record_open_questions: on }).eq('id', true).select('record_open_questions');
  if (error) throw new OpenQuestionsError('setting', error.message);
  if (data.length === 0) throw new OpenQuestionsError('setting', 'not allowed');
}
