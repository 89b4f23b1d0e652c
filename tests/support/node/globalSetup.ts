/**
 * Before the node project's workers start: the ready-made database for the current SQL files
 * (supabase/local/database.ts), built once here instead of by each worker that finds none (a fresh
 * machine, a changed migration).
 */
import { ensureTemplate } from '../../../supabase/local/database';

export default async function setup(): Promise<void> {
  await ensureTemplate();
}
