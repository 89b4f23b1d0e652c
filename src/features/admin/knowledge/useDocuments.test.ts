import type { DocumentItem } from '../../../services/documents';
import { applyDocumentChange } from './useDocuments';

const doc = (id: string, status: DocumentItem['status'] = 'PROCESSING'): DocumentItem => ({
  id,
  title: `${id}.pdf`,
  url: `https://example.test/${id}.pdf`,
  status,
  error: null,
  file_size: 1000,
  storage_path: `1-${id}.pdf`,
  created_at: '2026-11-22T10:00:00Z',
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
