/**
 * Sentence splitting, shared with the coach function (which cuts replies after the 4th sentence),
 * so that the sentences the browser sends to text-to-speech are the ones the function counts.
 */
export { createSentenceStream, limitSentences, splitSentences, type SentenceStream } from '../../supabase/functions/_shared/sentences';
