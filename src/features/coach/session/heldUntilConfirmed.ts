/**
 * What a start that may be speculative holds back until it is confirmed: an early reply (started
 * on the visitor's words so far), the greeting from the press of the mouse button (before its
 * click). Until `confirm()` its events wait and its audio is gated; a start that is not
 * speculative is confirmed from the outset.
 */
export interface Held {
  /** Opens at `confirm()`: the speech queue plays nothing before. */
  gate: Promise<void>;
  /** Does `action` now when confirmed, else at `confirm()`, in order. */
  run: (action: () => void) => void;
  confirmed: () => boolean;
  confirm: () => void;
}

export function heldUntilConfirmed(speculative: boolean): Held {
  let confirmed = !speculative;
  const held: (() => void)[] = [];
  let openGate: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  if (confirmed) openGate();
  return {
    gate,
    run: (action) => {
      if (confirmed) action();
      else held.push(action);
    },
    confirmed: () => confirmed,
    confirm: () => {
      if (confirmed) return;
      confirmed = true;
      held.splice(0).forEach((action) => action());
      openGate();
    },
  };
}
