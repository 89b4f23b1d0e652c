import * as Dialog from '@radix-ui/react-dialog';
import { useId, type ReactNode } from 'react';
import { buttonClass } from '../../components/ui/buttonStyles';
import { Notice } from './Notice';

/** A titled part of the dashboard: a region named by its heading, with a lead line under it. */
export function PanelSection({
  title,
  lead,
  busy,
  className = 'space-y-4',
  children,
}: {
  title: string;
  lead: string;
  busy?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} aria-busy={busy} className={className}>
      <div>
        <h2 id={headingId} className="text-xl font-bold text-slate-900">
          {title}
        </h2>
        <p className="mt-1 text-slate-700">{lead}</p>
      </div>
      {children}
    </section>
  );
}

export const dangerButton = buttonClass('primary', 'bg-red-700 hover:bg-red-800 focus-visible:outline-red-700');

/**
 * A destructive action that asks first: the trigger opens a dialog with the question, Cancel and
 * the confirming button; an error from the action shows inside the dialog.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  trigger,
  triggerClassName,
  triggerLabel,
  title,
  question,
  confirmLabel,
  cancelLabel,
  busy,
  error,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactNode;
  triggerClassName: string;
  triggerLabel?: string;
  title: string;
  question: string;
  confirmLabel: string;
  cancelLabel: string;
  busy: boolean;
  error?: string | null;
  onConfirm: () => void;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger className={triggerClassName} aria-label={triggerLabel}>
        {trigger}
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[min(92vw,28rem)] -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-bold text-slate-900">{title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-slate-700">{question}</Dialog.Description>
          {error ? (
            <Notice tone="error" className="mt-4">
              {error}
            </Notice>
          ) : null}
          <div className="mt-6 flex justify-end gap-3">
            <Dialog.Close className={buttonClass('secondary')}>{cancelLabel}</Dialog.Close>
            <button type="button" disabled={busy} className={dangerButton} onClick={onConfirm}>
              {confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
