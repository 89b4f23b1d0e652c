import { createContext, useCallback, useMemo, useState, type ReactNode } from 'react';

/**
 * Where the cookie notice shows on this page view, shared by every notice inside the provider: it
 * floats over the bottom of the screen unless a page has put one in its own flow (the live coach
 * does once its chat is open, whose input and "Senden" would otherwise lie beneath the floating
 * one); and the X hides every notice for this page view, wherever it sits.
 */
export interface NoticePlacement {
  dismissed: boolean;
  dismiss: () => void;
  /** Whether a notice in the page's flow is mounted (the floating one then stays away). */
  inlineShown: boolean;
  /** A notice in the page's flow was mounted; the returned function unmounts it. */
  addInline: () => () => void;
}

export const NoticePlacementContext = createContext<NoticePlacement | null>(null);

export function CookieNoticePlacement({ children }: { children: ReactNode }) {
  const [dismissed, setDismissed] = useState(false);
  const [inlineNotices, setInlineNotices] = useState(0);
  const dismiss = useCallback(() => setDismissed(true), []);
  const addInline = useCallback(() => {
    setInlineNotices((count) => count + 1);
    return () => setInlineNotices((count) => count - 1);
  }, []);
  const placement = useMemo(
    () => ({ dismissed, dismiss, inlineShown: inlineNotices > 0, addInline }),
    [dismissed, dismiss, inlineNotices, addInline],
  );
  return <NoticePlacementContext.Provider value={placement}>{children}</NoticePlacementContext.Provider>;
}
