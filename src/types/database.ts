/**
 * The database types, generated into `supabase/functions/_shared/database.types.ts` so the edge
 * functions (which import nothing outside `supabase/functions`) and the app share one file.
 */
export * from '../../supabase/functions/_shared/database.types';
