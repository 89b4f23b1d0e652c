import * as Dialog from '@radix-ui/react-dialog';
import { useT } from '../../i18n/language';
import { ContactForm } from './ContactForm';

interface ContactModalProps {
  open: boolean;
  product: string | null;
  onClose: () => void;
  /** Called once the dialog has closed, to put focus back where it was. */
  onClosed?: () => void;
  /** Opens the e-mail draft; the browser's navigation by default. */
  openMail?: (url: string) => void;
}

/**
 * Radix Dialog traps focus, closes on Escape and returns focus to the opener. No Dialog.Portal: the
 * modal is already rendered last in the app (ContactProvider), and a portal mounts in two passes
 * (its layout effect sets state), a second synchronous render of the whole dialog in the task
 * that opens it.
 */
export default function ContactModal({ open, product, onClose, onClosed, openMail }: ContactModalProps) {
  const { t } = useT();
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/60" />
      <Dialog.Content
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          onClosed?.();
        }}
        className="fixed inset-x-0 bottom-0 z-50 max-h-[100dvh] overflow-y-auto rounded-t-2xl bg-white p-5 shadow-xl sm:inset-auto sm:left-1/2 sm:top-1/2 sm:max-h-[90vh] sm:w-full sm:max-w-xl sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl sm:p-8">
        <div className="flex items-start justify-between gap-4">
          <Dialog.Title className="text-2xl font-bold text-slate-900">{t('contact.title')}</Dialog.Title>
          <Dialog.Close
            className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100"
            aria-label={t('contact.close')}
          >
            <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </Dialog.Close>
        </div>
        <Dialog.Description className="mt-2 text-sm text-slate-700">{t('contact.description')}</Dialog.Description>
        <ContactForm
          product={product ?? t('contact.defaultProduct')}
          onSent={onClose}
          openMail={openMail ?? ((url) => window.location.assign(url))}
        />
      </Dialog.Content>
    </Dialog.Root>
  );
}
