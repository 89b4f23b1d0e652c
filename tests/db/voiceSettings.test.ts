/**
 * The voice settings have one source, supabase/functions/_shared/voiceSettings.ts (the admin's
 * sliders, the browser and the `tts` function take their bounds and defaults from it); the table
 * public.voice_configs (…_voice.sql) restates them as check constraints and column defaults. These
 * tests hold the two equal: a bound moved on one side only fails here.
 */
import { describe, expect, it } from 'vitest';

import {
  defaultVoiceSettings,
  voiceSettingBounds,
  type NumericVoiceSetting,
  type VoiceSettings,
} from '../../supabase/functions/_shared/voiceSettings';
import { useDatabase } from './fixtures';

const fixture = useDatabase();

const settings = Object.keys(voiceSettingBounds) as NumericVoiceSetting[];

/** Whether the table takes a row with `column` at `value` (the others at their defaults); rolled back. */
async function accepts(column: NumericVoiceSetting, value: number): Promise<boolean> {
  try {
    await fixture.db.transaction(async (tx) => {
      await tx.query(`insert into public.voice_configs (${column}) values ($1)`, [value]);
      await tx.rollback();
    });
    return true;
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === '23514') return false;
    throw error;
  }
}

describe('public.voice_configs holds the shared voice settings', () => {
  it.each(settings)('%s: the check constraint takes the shared bounds and nothing beyond them', async (column) => {
    const { min, max } = voiceSettingBounds[column];
    const beyond = 0.001;
    expect(await accepts(column, min), `${column} = ${String(min)}`).toBe(true);
    expect(await accepts(column, max), `${column} = ${String(max)}`).toBe(true);
    expect(await accepts(column, min - beyond), `${column} below ${String(min)}`).toBe(false);
    expect(await accepts(column, max + beyond), `${column} above ${String(max)}`).toBe(false);
  });

  it('checks exactly the settings the shared module bounds', async () => {
    const checks = await fixture.db.query<{ definition: string }>(
      `select pg_get_constraintdef(oid) as definition from pg_constraint
        where conrelid = 'public.voice_configs'::regclass and contype = 'c' order by 1`,
    );
    const checked = checks.rows.map(({ definition }) => settings.find((column) => new RegExp(`\\b${column}\\b`).test(definition)));
    expect(checked.sort()).toEqual([...settings].sort());
  });

  it('a new row takes the shared defaults, and the active row starts with them', async () => {
    const fresh = await fixture.db.transaction(async (tx) => {
      const inserted = await tx.query<VoiceSettings>(
        'insert into public.voice_configs default values returning stability, similarity_boost, style, use_speaker_boost, speed, pitch',
      );
      await tx.rollback();
      return inserted.rows[0];
    });
    expect(fresh).toEqual(defaultVoiceSettings);
    const active = await fixture.db.query<VoiceSettings>(
      'select stability, similarity_boost, style, use_speaker_boost, speed, pitch from public.voice_configs where is_active',
    );
    expect(active.rows).toEqual([defaultVoiceSettings]);
  });
});
