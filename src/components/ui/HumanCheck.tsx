import { useEffect, useRef } from 'react';

/** The part of Cloudflare Turnstile's explicit rendering API the widget uses (`window.turnstile`). */
export interface HumanCheckWidget {
  render(
    container: HTMLElement,
    options: { sitekey: string; callback: (token: string) => void; 'error-callback'?: (code: string) => void; 'expired-callback'?: () => void; language?: string },
  ): string | undefined;
  reset(widgetId?: string): void;
  remove(widgetId: string): void;
}

/**
 * Cloudflare Turnstile's widget, where the operator set a site key: rendered into a box of its own
 * once mounted (never on the server), with its token handed to `onToken` and a failure to
 * `onError`. `load` brings the widget's API (Cloudflare's script, loaded on first use; a test hands
 * in a fake); `resetKey` changing asks for a fresh token (a token is good for one sign-in).
 */
export function HumanCheck({
  siteKey,
  load,
  onToken,
  onError,
  resetKey = 0,
  label,
}: {
  /** What the visitor is asked, above the widget. */
  label: string;
  siteKey: string;
  load: () => Promise<HumanCheckWidget>;
  onToken: (token: string) => void;
  onError: (reason: string) => void;
  resetKey?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: HumanCheckWidget; id: string } | null>(null);
  // The latest callbacks, without rendering the widget anew when they change.
  const handlers = useRef({ onToken, onError });
  useEffect(() => {
    handlers.current = { onToken, onError };
  }, [onToken, onError]);

  useEffect(() => {
    let active = true;
    load().then(
      (api) => {
        const container = box.current;
        if (!active || !container) return;
        const id = api.render(container, {
          sitekey: siteKey,
          language: 'de',
          callback: (token) => handlers.current.onToken(token),
          'error-callback': (code) => handlers.current.onError(`turnstile error ${code}`),
          'expired-callback': () => handlers.current.onError('turnstile token expired'),
        });
        if (id !== undefined) widget.current = { api, id };
      },
      (error: unknown) => {
        if (active) handlers.current.onError(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      active = false;
      const current = widget.current;
      widget.current = null;
      if (current) current.api.remove(current.id);
    };
  }, [siteKey, load]);

  useEffect(() => {
    if (resetKey === 0) return;
    const current = widget.current;
    if (current) current.api.reset(current.id);
  }, [resetKey]);

  return (
    <div className="flex flex-col items-center gap-2" data-human-check="">
      <p className="text-sm text-slate-700">{label}</p>
      <div ref={box} />
    </div>
  );
}
