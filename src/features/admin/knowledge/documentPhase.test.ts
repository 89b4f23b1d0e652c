import type { DocumentItem } from '../../../services/documents';
import { canRefresh, canReprocess, DELETE_INCOMPLETE_AFTER_MS, documentPhase, nextPhaseChange } from './documentPhase';

const STUCK_MS = 5 * 60 * 1000;
const start = Date.parse('2026-11-25T09:00:00Z');
const at = (ms: number) => new Date(start + ms).toISOString();

const doc = (fields: Partial<Pick<DocumentItem, 'status' | 'processing_started_at' | 'deleting_since'>> = {}) => ({
  status: 'PROCESSING' as DocumentItem['status'],
  processing_started_at: at(0),
  deleting_since: null,
  ...fields,
});

describe('documentPhase', () => {
  it('shows PROCESSING as processing up to 5 minutes and as stuck from then on', () => {
    expect(documentPhase(doc(), start + STUCK_MS - 1)).toBe('processing');
    expect(documentPhase(doc(), start + STUCK_MS)).toBe('stuck');
    expect(documentPhase(doc(), start + 3 * 60 * 60 * 1000)).toBe('stuck');
  });

  it('never calls a document stuck that this tab is processing, however long it takes', () => {
    expect(documentPhase(doc(), start + 60 * 60 * 1000, { processingHere: true })).toBe('processing');
  });

  it('counts from the start of the current run, not from the upload', () => {
    // Processed again two minutes ago: not stuck, whatever the upload time.
    expect(documentPhase(doc({ processing_started_at: at(10 * 60 * 1000) }), start + 12 * 60 * 1000)).toBe('processing');
  });

  it('keeps COMPLETED and ERROR as they are, whatever their age', () => {
    expect(documentPhase(doc({ status: 'COMPLETED' }), start + 10 * STUCK_MS)).toBe('completed');
    expect(documentPhase(doc({ status: 'ERROR' }), start + 10 * STUCK_MS)).toBe('error');
  });

  it('shows a begun delete as being deleted, and as incomplete after a minute or at once when it failed here', () => {
    const deleting = doc({ status: 'COMPLETED', deleting_since: at(0) });
    expect(documentPhase(deleting, start + 1_000)).toBe('deleting');
    expect(documentPhase(deleting, start + DELETE_INCOMPLETE_AFTER_MS)).toBe('deleteIncomplete');
    expect(documentPhase(deleting, start + 1_000, { deleteFailedHere: true })).toBe('deleteIncomplete');
    // A retry under way here is "being deleted" again, however old the mark.
    expect(documentPhase(deleting, start + 10 * DELETE_INCOMPLETE_AFTER_MS, { deletingHere: true, deleteFailedHere: true })).toBe('deleting');
  });

  it('lets a begun delete win over a stuck or failed processing state', () => {
    expect(documentPhase(doc({ deleting_since: at(0) }), start + 10 * STUCK_MS)).toBe('deleteIncomplete');
    expect(documentPhase(doc({ status: 'ERROR', deleting_since: at(0) }), start + 1_000)).toBe('deleting');
  });

  it('offers "Erneut verarbeiten" for ERROR and stuck only', () => {
    expect(canReprocess('error')).toBe(true);
    expect(canReprocess('stuck')).toBe(true);
    for (const phase of ['completed', 'processing', 'deleting', 'deleteIncomplete'] as const) expect(canReprocess(phase)).toBe(false);
  });

  it('offers "Neu einlesen" for processed documents only', () => {
    expect(canRefresh('completed')).toBe(true);
    for (const phase of ['error', 'stuck', 'processing', 'deleting', 'deleteIncomplete'] as const) expect(canRefresh(phase)).toBe(false);
  });
});

describe('nextPhaseChange', () => {
  it('is the earliest moment a document turns stuck or a delete turns incomplete', () => {
    const documents = [
      doc({ processing_started_at: at(60_000) }),
      doc({ status: 'COMPLETED', deleting_since: at(30_000) }),
      doc({ processing_started_at: at(0) }),
    ];
    expect(nextPhaseChange(documents, start)).toBe(start + 30_000 + DELETE_INCOMPLETE_AFTER_MS);
    expect(nextPhaseChange(documents, start + 30_000 + DELETE_INCOMPLETE_AFTER_MS)).toBe(start + STUCK_MS);
  });

  it('is null when nothing will change by time alone', () => {
    expect(nextPhaseChange([doc({ status: 'COMPLETED' }), doc({ status: 'ERROR' })], start)).toBeNull();
    expect(nextPhaseChange([doc()], start + STUCK_MS)).toBeNull();
  });
});
