import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

interface ContactState {
  readonly isOpen: boolean;
  /** The product the enquiry is about; it ends up in the e-mail subject. */
  readonly product: string | null;
  readonly open: (product?: string) => void;
  readonly close: () => void;
}

const ContactContext = createContext<ContactState | null>(null);

// The dialog and its form load on first use, so pages that never open it do not pay for them.
const ContactModal = lazy(() => import('./ContactModal'));

/** One contact modal for the whole site; every trigger (header, footer, contact page) shares it. */
export function ContactProvider({ children }: { children: ReactNode }) {
  const [isOpen, setOpen] = useState(false);
  const [product, setProduct] = useState<string | null>(null);
  const [used, setUsed] = useState(false);
  // Whatever had focus when the modal opened gets it back when it closes.
  const opener = useRef<HTMLElement | null>(null);

  const open = useCallback((next?: string) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setProduct(next ?? null);
    setUsed(true);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);
  const restoreFocus = useCallback(() => {
    const target = opener.current;
    opener.current = null;
    if (target?.isConnected) target.focus();
  }, []);
  const value = useMemo(() => ({ isOpen, product, open, close }), [isOpen, product, open, close]);

  return (
    <ContactContext.Provider value={value}>
      {children}
      {used ? (
        <Suspense fallback={null}>
          <ContactModal open={isOpen} product={product} onClose={close} onClosed={restoreFocus} />
        </Suspense>
      ) : null}
    </ContactContext.Provider>
  );
}

export function useContact(): ContactState {
  const state = useContext(ContactContext);
  if (!state) throw new Error('useContact must be used inside <ContactProvider>');
  return state;
}
