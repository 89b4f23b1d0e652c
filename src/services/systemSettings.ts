/**
 * The admin-only `system-settings` function: whether the provider keys are set on the server
 * (masked, never the key), today's spend against the caps (with how many clients spent it, the
 * caps crossed and the budgets too small for a new visitor's first question), and clearing the coach's cached voice
 * audio (failures reject with FunctionCallError); and the operator's switches in `system_settings`,
 * which admins read and change directly (row level security).
 */
import { callFunctionJson } from './edgeFunctions';
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

/** Figures of each kind the daily caps limit (the operator's day in Germany). */
export interface UsageFigures {
  modelTokens: number;
  ttsCharacters: number;
  sttSeconds: number;
  /** The knowledge base's embeddings (admins), on a cap of their own. */
  embeddingTokens: number;
}

export type UsageKind = keyof UsageFigures;
/** The kinds visitors spend, each with a budget per client and per network. */
export type VisitorUsageKind = Exclude<UsageKind, 'embeddingTokens'>;

/** A cap crossed today: 80 (% of it spent) or 100 (reached, requests refused). */
export interface CapAlert {
  kind: UsageKind;
  threshold: 80 | 100;
}

/** A budget that cannot hold what a new visitor needs first, and the setting that fixes it. */
export interface BudgetProblem {
  kind: VisitorUsageKind;
  scope: 'client' | 'network';
  budget: number;
  needed: number;
  fix: { setting: string; value: number };
}

export interface Usage {
  caps: UsageFigures;
  today: UsageFigures;
  /** How many clients spent each kind today. */
  clients: Record<VisitorUsageKind, number>;
  alerts: CapAlert[];
  problems: BudgetProblem[];
}

const KIND_NAMES: Record<string, UsageKind> = {
  model_tokens: 'modelTokens',
  tts_characters: 'ttsCharacters',
  stt_seconds: 'sttSeconds',
  embedding_tokens: 'embeddingTokens',
};

const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
const count = (field: unknown) => (typeof field === 'number' && Number.isFinite(field) ? field : 0);

function figures(value: unknown): UsageFigures {
  const fields = record(value);
  return {
    modelTokens: count(fields.modelTokens),
    ttsCharacters: count(fields.ttsCharacters),
    sttSeconds: count(fields.sttSeconds),
    embeddingTokens: count(fields.embeddingTokens),
  };
}

function alerts(value: unknown): CapAlert[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const fields = record(item);
    const kind = typeof fields.kind === 'string' ? KIND_NAMES[fields.kind] : undefined;
    const threshold = fields.threshold === 80 || fields.threshold === 100 ? fields.threshold : null;
    return kind && threshold ? [{ kind, threshold }] : [];
  });
}

function problems(value: unknown): BudgetProblem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const fields = record(item);
    const kind = typeof fields.kind === 'string' ? KIND_NAMES[fields.kind] : undefined;
    const fix = record(fields.fix);
    if (!kind || kind === 'embeddingTokens' || (fields.scope !== 'client' && fields.scope !== 'network') || typeof fix.setting !== 'string') return [];
    return [{ kind, scope: fields.scope, budget: count(fields.budget), needed: count(fields.needed), fix: { setting: fix.setting, value: count(fix.value) } }];
  });
}

export async function fetchUsage(accessToken: string): Promise<Usage> {
  const body = await callFunctionJson('system-settings', { path: 'usage', accessToken });
  const clients = figures(body.clients);
  return {
    caps: figures(body.caps),
    today: figures(body.today),
    clients: { modelTokens: clients.modelTokens, ttsCharacters: clients.ttsCharacters, sttSeconds: clients.sttSeconds },
    alerts: alerts(body.alerts),
    problems: problems(body.problems),
  };
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
