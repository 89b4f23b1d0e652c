/**
 * The coach persona as the browser needs it. Its source is supabase/functions/_shared/persona.ts,
 * shared with the coach function (which alone holds the system prompt). The slug decides the
 * live-test route: /produkte/<slug>-ai.
 */
import { persona } from '../../supabase/functions/_shared/persona';

export { persona };

export const liveCoachPath = `/produkte/${persona.slug}-ai`;
