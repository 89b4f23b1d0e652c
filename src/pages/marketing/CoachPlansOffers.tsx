import { useReach } from '../../features/reach/ReachContext';
import { useT } from '../../i18n/language';
import { PlanCards } from './PricingPlanCard';

const plans = ['portal', 'whiteLabel'] as const;

/** The two coach plans; an enquiry names the plan and the reach the visitor has chosen. */
export function CoachPlanCards() {
  const { t } = useT('coachPlans');
  const { selected } = useReach();
  const reach = t(`reach.options.${selected.id}.name`);
  return (
    <PlanCards
      priceLabel={t('plans.priceLabel')}
      plans={plans.map((key) => {
        const plan = t(`plans.${key}`, { returnObjects: true });
        return { ...plan, product: t('plans.product', { name: plan.name, reach }) };
      })}
    />
  );
}
