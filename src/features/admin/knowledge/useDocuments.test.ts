import { act, renderHook } from '@testing-library/react';
import type { DocumentItem } from '../../../services/documents';
import { documentPhase } from './documentPhase';
import { applyDocumentChange, DocumentListSync, usePhaseClock } from './useDocuments';

const doc = (id: string, status: DocumentItem['status'] = 'PROCESSING'): DocumentItem => ({
  id,
  title: `${id}.pdf`,
  url: `https://example.test/${id}.pdf`,
  status,
  error: null,
  file_size: 1000,
  storage_path: `1-${id}.pdf`,
  created_at: '2026-11-22T10:00:00Z',
  processing_started_at: '2026-11-22T10:00:00Z',
  deleting_since: null,
});

describe('applyDocumentChange', () => {
  const list = [doc('b'), doc('a')];

  it('prepends an insert', () => {
    expect(applyDocumentChange(list, { type: 'INSERT', document: doc('c') }).map((d) => d.id)).toEqual(['c', 'b', 'a']);
  });

  it('does not list a document twice when its insert arrives after a reload already showed it', () => {
    expect(applyDocumentChange(list, { type: 'INSERT', document: doc('a') }).map((d) => d.id)).toEqual(['a', 'b']);
  });

  it('replaces an update by id, in place', () => {
    const next = applyDocumentChange(list, { type: 'UPDATE', document: doc('a', 'COMPLETED') });
    expect(next.map((d) => [d.id, d.status])).toEqual([
      ['b', 'PROCESSING'],
      ['a', 'COMPLETED'],
    ]);
  });

  it('shows an update of a document it has not seen yet', () => {
    expect(applyDocumentChange(list, { type: 'UPDATE', document: doc('z', 'ERROR') }).map((d) => d.id)).toEqual(['z', 'b', 'a']);
  });

  it('removes a delete by id and leaves the others alone', () => {
    expect(applyDocumentChange(list, { type: 'DELETE', id: 'b' }).map((d) => d.id)).toEqual(['a']);
    expect(applyDocumentChange(list, { type: 'DELETE', id: 'nope' })).toEqual(list);
  });
});

describe('DocumentListSync', () => {
  const ids = (list: readonly DocumentItem[]) => list.map((d) => d.id);

  it('drops a load that resolves after a later one was applied', () => {
    const sync = new DocumentListSync();
    const first = sync.beginLoad();
    const second = sync.beginLoad();
    expect(sync.loaded(second, [doc('b'), doc('a')])).toBe(true);
    expect(sync.loaded(first, [doc('a')])).toBe(false);
    expect(ids(sync.documents)).toEqual(['b', 'a']);
  });

  it('applies an older load that resolves first, then the newer one', () => {
    const sync = new DocumentListSync();
    const first = sync.beginLoad();
    const second = sync.beginLoad();
    expect(sync.loaded(first, [doc('a')])).toBe(true);
    expect(sync.loaded(second, [doc('b'), doc('a')])).toBe(true);
    expect(ids(sync.documents)).toEqual(['b', 'a']);
  });

  it('keeps a change heard during a load whose result was read before the change', () => {
    const sync = new DocumentListSync();
    const load = sync.beginLoad();
    sync.change({ type: 'INSERT', document: doc('c') });
    sync.change({ type: 'UPDATE', document: doc('a', 'COMPLETED') });
    sync.change({ type: 'DELETE', id: 'b' });
    // The query read the table before the three changes.
    expect(sync.loaded(load, [doc('b'), doc('a')])).toBe(true);
    expect(sync.documents.map((d) => [d.id, d.status])).toEqual([
      ['c', 'PROCESSING'],
      ['a', 'COMPLETED'],
    ]);
  });

  it('ends in the same list when the load already saw the changes', () => {
    const sync = new DocumentListSync();
    const load = sync.beginLoad();
    sync.change({ type: 'INSERT', document: doc('c') });
    sync.change({ type: 'UPDATE', document: doc('c', 'COMPLETED') });
    expect(sync.loaded(load, [doc('c', 'COMPLETED'), doc('a')])).toBe(true);
    expect(sync.documents.map((d) => [d.id, d.status])).toEqual([
      ['c', 'COMPLETED'],
      ['a', 'PROCESSING'],
    ]);
  });

  it('does not re-apply changes heard before a load started, nor after it was applied', () => {
    const sync = new DocumentListSync();
    sync.change({ type: 'INSERT', document: doc('gone') });
    const load = sync.beginLoad();
    expect(sync.loaded(load, [doc('a')])).toBe(true);
    expect(ids(sync.documents)).toEqual(['a']);
    sync.change({ type: 'INSERT', document: doc('d') });
    const next = sync.beginLoad();
    expect(sync.loaded(next, [doc('d'), doc('a')])).toBe(true);
    expect(ids(sync.documents)).toEqual(['d', 'a']);
  });

  it('a failed load leaves the list and later loads unaffected', () => {
    const sync = new DocumentListSync();
    const failing = sync.beginLoad();
    const load = sync.beginLoad();
    sync.change({ type: 'INSERT', document: doc('c') });
    sync.failed(failing);
    expect(ids(sync.documents)).toEqual(['c']);
    expect(sync.loaded(load, [doc('a')])).toBe(true);
    expect(ids(sync.documents)).toEqual(['c', 'a']);
  });
});

describe('usePhaseClock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ticks when a document turns stuck, so the list shows it without a reload', () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-25T09:00:00Z') });
    const started = { ...doc('s'), processing_started_at: '2026-11-25T08:57:00Z' };
    const { result } = renderHook(() => usePhaseClock([started]));
    expect(documentPhase(started, result.current)).toBe('processing');
    act(() => {
      vi.advanceTimersByTime(2 * 60 * 1000 - 1_000);
    });
    expect(documentPhase(started, result.current)).toBe('processing');
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    expect(documentPhase(started, result.current)).toBe('stuck');
  });

  it('sets no timer when nothing changes by time alone', () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-25T09:00:00Z') });
    renderHook(() => usePhaseClock([doc('c', 'COMPLETED')]));
    expect(vi.getTimerCount()).toBe(0);
  });
});
