import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { defaultReach, reachOption, type ReachId, type ReachOption } from './reachOptions';

interface ReachState {
  readonly selected: ReachOption;
  readonly choose: (id: ReachId) => void;
}

const ReachContext = createContext<ReachState | null>(null);

/** The visitor's reach choice on the coach plan page; National until they pick another. */
export function ReachProvider({ children }: { children: ReactNode }) {
  const [selectedId, choose] = useState<ReachId>(defaultReach);
  const value = useMemo(() => ({ selected: reachOption(selectedId), choose }), [selectedId]);
  return <ReachContext.Provider value={value}>{children}</ReachContext.Provider>;
}

export function useReach(): ReachState {
  const state = useContext(ReachContext);
  if (!state) throw new Error('useReach must be used inside <ReachProvider>');
  return state;
}
