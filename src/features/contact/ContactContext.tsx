import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

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

  const open = useCallback((next?: string) => {
    setProduct(next ?? null);
    setUsed(true);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);
  const value = useMemo(() => ({ isOpen, product, open, close }), [isOpen, product, open, close]);

  return (
    <ContactContext.Provider value={value}>
      {children}
      {used ? (
        <Suspense fallback={null}>
          <ContactModal open={isOpen} product={product} onClose={close} />
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
