/**
 * The admin-only `system-settings` function: whether the provider keys are set on the server
 * (masked, never the key) and clearing the coach's cached voice audio; and the operator's switches
 * in `system_settings`, which admins read and change directly (row level security).
 */
import { env } from '../config/env';
import { functionUrl } from './functionsUrl';
import { getSupabase } from './supabase';

export interface KeyStatus {
  configured: boolean;
  /** e.g. "sk-…x7Qa"; null when not configured. */
  masked: string | null;
}

export interface ProviderKeys {
  languageModel: KeyStatus;
  voice: KeyStatus;
}

function headers(accessToken: string): Record<string, string> {
  return { authorization: `Bearer ${accessToken}`, apikey: env.VITE_SUPABASE_ANON_KEY };
}

function keyStatus(value: unknown): KeyStatus {
  if (typeof value !== 'object' || value === null) return { configured: false, masked: null };
  const record = value as Record<string, unknown>;
  return {
    configured: record.configured === true,
    masked: typeof record.masked === 'string' ? record.masked : null,
  };
}

export async function fetchProviderKeys(accessToken: string): Promise<ProviderKeys> {
  const response = await fetch(functionUrl('system-settings'), { headers: headers(accessToken) });
  if (!response.ok) throw new Error(`system-settings answered ${String(response.status)}`);
  const body = (await response.json()) as Record<string, unknown>;
  return { languageModel: keyStatus(body.languageModel), voice: keyStatus(body.voice) };
}

/** Removes every cached voice recording; returns how many were removed. */
export async function clearVoiceCache(accessToken: string): Promise<number> {
  const response = await fetch(`${functionUrl('system-settings')}/clear-tts-cache`, {
    method: 'POST',
    headers: headers(accessToken),
  });
  if (!response.ok) throw new Error(`clear-tts-cache answered ${String(response.status)}`);
  const body = (await response.json()) as { removed?: unknown };
  return typeof body.removed === 'number' ? body.removed : 0;
}

/** Today's spend of each kind the daily caps limit (the operator's day in Germany). */
export interface UsageFigures {
  modelTokens: number;
  ttsCharacters: number;
  sttSeconds: number;
}

export interface Usage {
  caps: UsageFigures;
  today: UsageFigures;
}

function figures(value: unknown): UsageFigures {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const number = (field: unknown) => (typeof field === 'number' && Number.isFinite(field) ? field : 0);
  return { modelTokens: number(record.modelTokens), ttsCharacters: number(record.ttsCharacters), sttSeconds: number(record.sttSeconds) };
}

export async function fetchUsage(accessToken: string): Promise<Usage> {
  const response = await fetch(`${functionUrl('system-settings')}/usage`, { headers: headers(accessToken) });
  if (!response.ok) throw new Error(`usage answered ${String(response.status)}`);
  const body = (await response.json()) as Record<string, unknown>;
  return { caps: figures(body.caps), today: figures(body.today) };
}

/**
 * The switch "every browser through the speech-to-text provider" (`system_settings`,
 * voice_input_via_provider). Row level security lets admins only; a refused change changes no row
 * and is reported as a failure.
 */
export async function loadVoiceInputViaProvider(): Promise<boolean> {
  const { data, error } = await getSupabase().from('system_settings').select('voice_input_via_provider').maybeSingle();
  if (error) throw new Error(error.message);
  if (data === null) throw new Error('no settings row visible');
  return data.voice_input_via_provider;
}

export async function saveVoiceInputViaProvider(on: boolean): Promise<void> {
  const { data, error } = await getSupabase()
    .from('system_settings')
    .update({ voice_input_via_provider: on })
    .eq('id', true)
    .select('voice_input_via_provider');
  if (error) throw new Error(error.message);
  if (data.length === 0) throw new Error('not allowed');
}
