/**
 * The admin-only `system-settings` function: whether the provider keys are set on the server
 * (masked, never the key), today's spend against the caps, and clearing the coach's cached voice
 * audio. Failures reject with FunctionCallError.
 */
import { callFunctionJson } from './edgeFunctions';

export interface KeyStatus {
  configured: boolean;
  /** e.g. "sk-…x7Qa"; null when not configured. */
  masked: string | null;
}

export interface ProviderKeys {
  languageModel: KeyStatus;
  voice: KeyStatus;
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
  const body = await callFunctionJson('system-settings', { accessToken });
  return { languageModel: keyStatus(body.languageModel), voice: keyStatus(body.voice) };
}

/** Removes every cached voice recording; returns how many were removed. */
export async function clearVoiceCache(accessToken: string): Promise<number> {
  const body = await callFunctionJson('system-settings', { method: 'POST', path: 'clear-tts-cache', accessToken });
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
  const body = await callFunctionJson('system-settings', { path: 'usage', accessToken });
  return { caps: figures(body.caps), today: figures(body.today) };
}
