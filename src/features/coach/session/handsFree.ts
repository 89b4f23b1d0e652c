import { createBrowserStore } from '../../../lib/browserStore';

/**
 * The visitor's choice of hands-free conversation, remembered in localStorage. Off by default (and
 * on the server, so the prerendered page matches), which keeps the click-to-talk flow of the
 * specification unchanged until the visitor switches it on.
 */
export const handsFreePreference = createBrowserStore('coach.handsFree', (value): value is 'on' | 'off' => value === 'on' || value === 'off');
