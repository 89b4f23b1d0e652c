import { useContext, useLayoutEffect, useState, useSyncExternalStore } from 'react';
import { getHref } from '../../config/routes';
import { useLanguage, useT } from '../../i18n/language';
import { createBrowserStore } from '../../lib/browserStore';
import { CONSENT_ACCEPTED, CONSENT_STORAGE_KEY } from './decided';
import { NoticePlacementContext } from './placement';
import { buttonClass } from '../../components/ui/buttonStyles';
import { ExternalLink } from '../../components/ui/ExternalLink';

export { CONSENT_STORAGE_KEY };
const isAccepted = (value: unknown): value is typeof CONSENT_ACCEPTED => value === CONSENT_ACCEPTED;
export const consentStore = createBrowserStore(CONSENT_STORAGE_KEY, isAccepted);

// The prerendered HTML has the notice, so hydration renders it too and the stored consent applies
// right after. Until then styles.css keeps it hidden unless src/main.tsx found no stored consent
// (./decided.ts): a first-time visitor sees it without waiting for the app, a decided one never.
const serverSnapshot = () => 'none' as const;
const clientSnapshot = () => consentStore.get() ?? ('none' as const);

/**
 * Shown while no consent is stored. Accept stores 'accepted' and hides it for good; the X hides
 * it for this page view only; Settings opens the privacy policy in a new tab.
 *
 * On public pages it floats over the bottom of the screen. `inline` puts it in the page's flow
 * instead: the admin area, whose controls fill whole phone screens, and the live coach's open
 * chat, whose input and "Senden" the floating notice covered on a laptop's screen. While an inline
 * notice is mounted the floating one stays away (./placement.tsx); it is registered before the
 * browser paints, so the two never show together. The notice carries the site's language, also
 * where it sits inside a part in another (the live coach's German).
 */
export function CookieBanner({ inline = false }: { inline?: boolean }) {
  const { t } = useT();
  const { lang } = useLanguage();
  const consent = useSyncExternalStore(consentStore.subscribe, clientSnapshot, serverSnapshot);
  // Shared with the page's other notice inside the app's shell (./placement.tsx); on its own, its own.
  const shared = useContext(NoticePlacementContext);
  const [ownDismissal, setOwnDismissal] = useState(false);
  const dismissed = shared ? shared.dismissed : ownDismissal;
  const dismiss = shared ? shared.dismiss : () => setOwnDismissal(true);
  const addInline = shared?.addInline;
  useLayoutEffect(() => (inline && addInline ? addInline() : undefined), [inline, addInline]);

  if (consent !== 'none' || dismissed || (!inline && shared?.inlineShown === true)) return null;

  return (
    <section
      data-cookie-notice=""
      aria-label={t('cookies.label')}
      lang={lang}
      className={
        inline
          ? 'mx-auto my-6 w-[calc(100%-2rem)] max-w-3xl rounded-2xl border border-slate-200 bg-white p-4 text-left'
          : 'fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white p-4 shadow-[0_-4px_24px_rgba(15,23,42,0.12)] sm:inset-x-auto sm:bottom-4 sm:right-4 sm:max-w-md sm:rounded-2xl sm:border'
      }
    >
      <div className="flex items-start gap-3">
        <p className="text-sm leading-6 text-slate-800">{t('cookies.text')}</p>
        <button
          type="button"
          onClick={dismiss}
          className="inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100"
          aria-label={t('cookies.dismiss')}
        >
          <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className={buttonClass('primary')} onClick={() => consentStore.set('accepted')}>
          {t('cookies.accept')}
        </button>
        <ExternalLink href={`${getHref('privacy', lang)}#datenerfassung`} className={buttonClass('secondary')}>
          {t('cookies.settings')}
        </ExternalLink>
      </div>
    </section>
  );
}
