/**
 * What the entry script (src/main.tsx) needs to know about consent before the app has loaded,
 * kept apart from the banner so the entry stays small.
 *
 * The prerendered HTML carries the cookie notice, hidden by styles.css until the entry has looked
 * at the stored consent and marked <html>: `none` shows the notice at once (a first-time visitor
 * sees it about when the page paints, not after hydration), `accepted` keeps it hidden until
 * hydration removes it. A visitor who has decided never sees it, not even for one frame: the
 * notice is hidden in the HTML itself, so no paint can come before the check. The mark is on
 * <html>, which React does not own, so hydration sees the markup it rendered.
 */
export const CONSENT_STORAGE_KEY = 'cookie-consent';
export const CONSENT_ACCEPTED = 'accepted';

export function hasStoredConsent(): boolean {
  try {
    return window.localStorage.getItem(CONSENT_STORAGE_KEY) === CONSENT_ACCEPTED;
  } catch {
    // Storage disabled: nothing was stored, the notice shows.
    return false;
  }
}

/** Marks <html> with the stored consent (`data-cookie-consent`), which styles.css reads. */
export function markStoredConsent(): void {
  document.documentElement.dataset.cookieConsent = hasStoredConsent() ? CONSENT_ACCEPTED : 'none';
}
