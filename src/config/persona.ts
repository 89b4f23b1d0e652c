/**
 * The coach persona as the browser needs it. Its source is supabase/functions/_shared/persona.ts,
 * shared with the coach function (which alone holds the system prompt). The slug decides the
 * live-test route: /produkte/<slug>-ai.
 */
export { persona } from '../../supabase/functions/_shared/persona';
import { persona } from '../../supabase/functions/_shared/persona';

export const liveCoachPath = `/produkte/${persona.slug}-ai`;
