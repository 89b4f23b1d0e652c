/**
 * A document PROCESSING for longer than this counts as stuck: the browser that extracts its text
 * (the admin's, after the upload) is gone. The database's private.document_stuck_after()
 * (supabase/migrations/…_documents.sql) is the same value and decides whether
 * "Erneut verarbeiten" may claim such a document; tests/db/documentRecovery.test.ts checks both agree.
 */
export const PROCESSING_STUCK_AFTER_MS = 5 * 60 * 1000;
