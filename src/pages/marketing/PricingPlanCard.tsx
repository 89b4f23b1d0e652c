import { buttonClass } from '../../components/ui/buttonStyles';
import { Card, CheckList } from '../../components/ui/Card';
import { useContact } from '../../features/contact/ContactContext';

export interface Plan {
  name: string;
  description: string;
  /** The price as text: all prices are on request. */
  price: string;
  features: readonly string[];
  cta: string;
  /** What the enquiry is about; it becomes the contact e-mail's subject. */
  product: string;
}

/**
 * Plan cards with their price text and features; each call to action opens the contact form about
 * that plan. Used by the pricing page and the coach plan page.
 */
export function PlanCards({ priceLabel, plans }: { priceLabel: string; plans: readonly Plan[] }) {
  const contact = useContact();
  return (
    <ul className="grid grid-cols-1 gap-6 md:grid-cols-2">
      {plans.map((plan) => (
        <li key={plan.name}>
          <Card className="flex h-full flex-col">
            <h3 className="text-xl font-bold text-slate-900">{plan.name}</h3>
            <p className="mt-2 text-slate-700">{plan.description}</p>
            <p className="mt-6 border-y border-slate-200 py-4">
              <span className="block text-sm font-medium text-slate-700">{priceLabel}</span>
              <span className="block text-2xl font-extrabold tracking-tight text-brand-800">{plan.price}</span>
            </p>
            <CheckList items={plan.features} className="mb-8 mt-6" />
            <div className="mt-auto">
              <button type="button" className={buttonClass('primary', 'w-full sm:w-auto')} onClick={() => contact.open(plan.product)}>
                {plan.cta}
              </button>
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}
