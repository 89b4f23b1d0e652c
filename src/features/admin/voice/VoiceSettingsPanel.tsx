import type { Session } from '@supabase/supabase-js';
import * as Switch from '@radix-ui/react-switch';
import { useEffect, useId, useRef, useState } from 'react';
import { buttonClass } from '../../../components/ui/buttonStyles';
import { Slider } from '../../../components/ui/Slider';
import { formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/language';
import { useT } from '../../../i18n/language';
import { defaultVoiceSettings, loadActiveVoiceSettings, saveVoiceSettings, voiceSaveMessages } from '../../../services/voiceConfig';
import {
  storedVoiceSettingName,
  voiceSettingBounds,
  type BrowserVoiceSettings,
} from '../../../../supabase/functions/_shared/voiceSettings';
import { Notice, type NoticeTone } from '../Notice';
import { PanelSection } from '../Panel';
import { speechProblemMessage } from '../../../services/speechErrors';
import { speak } from '../../../services/speechPlayback';

type SliderKey = 'stability' | 'similarityBoost' | 'style' | 'speed' | 'pitch';

/** The sliders in their order, each with its label; bounds and steps are the shared ones. */
const sliders = (
  [
    ['stability', 'stability'],
    ['similarityBoost', 'similarity'],
    ['style', 'style'],
    ['speed', 'speed'],
    ['pitch', 'pitch'],
  ] as const satisfies readonly (readonly [SliderKey, string])[]
).map(([key, label]) => ({ key, label, ...voiceSettingBounds[storedVoiceSettingName[key]] }));

/** Keeps slider values on their step grid (0.1 + 0.2 must read 0.3). */
const snap = (value: number, step: number) => Number((Math.round(value / step) * step).toFixed(2));

export function VoiceSettingsPanel({ session }: { session: Session }) {
  const { t } = useT('admin');
  const { lang } = useLanguage();
  const switchId = useId();
  const [settings, setSettings] = useState<BrowserVoiceSettings>(defaultVoiceSettings);
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const previewAbort = useRef<AbortController | null>(null);

  useEffect(() => {
    let active = true;
    loadActiveVoiceSettings()
      .then((loaded) => {
        if (active) setSettings(loaded);
      })
      .catch((error: unknown) => {
        console.error('[admin] voice settings not loaded:', error);
        if (active) setNotice({ tone: 'error', text: t('voice.loadFailed') });
      })
      .finally(() => {
        if (active) setLoading(false);
      });
    return () => {
      active = false;
      previewAbort.current?.abort();
    };
  }, [t]);

  const update = (patch: Partial<BrowserVoiceSettings>) => setSettings((current) => ({ ...current, ...patch }));

  async function save() {
    setSaving(true);
    setNotice(null);
    try {
      await saveVoiceSettings(settings);
      setNotice({ tone: 'success', text: voiceSaveMessages.saved });
    } catch (error) {
      console.error('[admin] voice settings not saved:', error);
      setNotice({ tone: 'error', text: voiceSaveMessages.failed });
    } finally {
      setSaving(false);
    }
  }

  async function preview() {
    previewAbort.current?.abort();
    const controller = new AbortController();
    previewAbort.current = controller;
    setPreviewing(true);
    setNotice(null);
    try {
      await speak(t('voice.previewSentence'), { voiceSettings: settings, accessToken: session.access_token, signal: controller.signal });
    } catch (error) {
      if (!controller.signal.aborted) {
        console.error('[admin] preview failed:', error);
        setNotice({ tone: 'error', text: speechProblemMessage(error) ?? t('voice.previewFailed') });
      }
    } finally {
      if (previewAbort.current === controller) setPreviewing(false);
    }
  }

  return (
    <PanelSection title={t('voice.heading')} lead={loading ? t('voice.loading') : t('voice.lead')} busy={loading} className="space-y-6">
      <div className="grid gap-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:grid-cols-2">
        {sliders.map(({ key, label, min, max, step }) => (
          <Slider
            key={key}
            label={t(`voice.${label}`)}
            value={settings[key]}
            min={min}
            max={max}
            step={step}
            disabled={loading}
            onChange={(value) => update({ [key]: snap(value, step) })}
            format={(value) => formatNumber(value, lang, step < 0.1 ? 2 : 1)}
          />
        ))}
        <div className="flex items-start gap-3">
          <Switch.Root
            id={switchId}
            checked={settings.useSpeakerBoost}
            disabled={loading}
            onCheckedChange={(checked) => update({ useSpeakerBoost: checked })}
            className="relative mt-0.5 h-6 w-11 shrink-0 rounded-full bg-slate-400 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 data-[state=checked]:bg-brand-700"
          >
            <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
          </Switch.Root>
          <div>
            <label htmlFor={switchId} className="text-sm font-medium text-slate-800">
              {t('voice.speakerBoost')}
            </label>
            <p className="text-sm text-slate-700">{t('voice.speakerBoostHint')}</p>
          </div>
        </div>
      </div>
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      <div className="flex flex-wrap gap-3">
        <button type="button" className={buttonClass('primary')} disabled={loading || saving} onClick={() => void save()}>
          {saving ? t('voice.saving') : t('voice.save')}
        </button>
        <button type="button" className={buttonClass('secondary')} disabled={loading || previewing} onClick={() => void preview()}>
          {previewing ? t('voice.previewing') : t('voice.preview')}
        </button>
        <button
          type="button"
          className={buttonClass('ghost')}
          disabled={loading}
          onClick={() => {
            setSettings(defaultVoiceSettings);
            setNotice({ tone: 'info', text: t('voice.defaultsApplied') });
          }}
        >
          {t('voice.defaults')}
        </button>
      </div>
    </PanelSection>
  );
}
