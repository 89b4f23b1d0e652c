import { StepList } from '../../components/ui/StepList';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { Section } from '../../components/ui/Section';
import { useT } from '../../i18n/language';
import {
  ProductActions,
  ProductBenefits,
  ProductCta,
  ProductFeatures,
  ProductIntro,
  ProductStats,
} from './ProductSections';

/** The product name as it appears in the contact e-mail's subject. */
const product = 'AI Contact Center';

export default function ContactCenterPage() {
  const { t } = useT('contactCenter');
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <ProductActions product={product} contactLabel={t('contact')} />
      </PageHeader>
      <Section title={t('stats.title')}>
        <ProductStats items={t('stats.items', { returnObjects: true })} />
      </Section>
      <Section title={t('features.title')}>
        <ProductIntro>{t('features.intro')}</ProductIntro>
        <ProductFeatures items={t('features.items', { returnObjects: true })} />
      </Section>
      <Section title={t('benefits.title')}>
        <ProductBenefits
          groups={[t('benefits.customers', { returnObjects: true }), t('benefits.business', { returnObjects: true })]}
        />
      </Section>
      <Section title={t('implementation.title')}>
        <ProductIntro>{t('implementation.intro')}</ProductIntro>
        <StepList steps={t('implementation.steps', { returnObjects: true })} />
      </Section>
      <ProductCta title={t('cta.title')} text={t('cta.text')} product={product} contactLabel={t('contact')} />
      <RelatedLinks title={t('related')} ids={['hotlines', 'secretary', 'pricing']} />
    </>
  );
}
