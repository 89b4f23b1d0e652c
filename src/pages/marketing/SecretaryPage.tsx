import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { Section } from '../../components/ui/Section';
import { SecretaryRoi } from '../../features/roi/islands';
import { useT } from '../../i18n/language';
import {
  ProductActions,
  ProductCalculator,
  ProductCta,
  ProductFeatures,
  ProductIntro,
  ProductTestimonials,
} from './ProductSections';

/** The product name as it appears in the contact e-mail's subject. */
const product = 'AI Secretary';

export default function SecretaryPage() {
  const { t } = useT('secretary');
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <ProductActions product={product} contactLabel={t('contact')} />
      </PageHeader>
      <Section title={t('features.title')}>
        <ProductIntro>{t('features.intro')}</ProductIntro>
        <ProductFeatures items={t('features.items', { returnObjects: true })} />
      </Section>
      <Section title={t('integrations.title')}>
        <ProductIntro>{t('integrations.intro')}</ProductIntro>
        <ProductFeatures items={t('integrations.items', { returnObjects: true })} />
      </Section>
      <ProductCalculator>
        <SecretaryRoi />
      </ProductCalculator>
      <Section title={t('testimonials.title')}>
        <ProductTestimonials items={t('testimonials.items', { returnObjects: true })} />
      </Section>
      <ProductCta title={t('cta.title')} text={t('cta.text')} product={product} contactLabel={t('contact')} />
      <RelatedLinks title={t('related')} ids={['contactCenter', 'hotlines', 'pricing']} />
    </>
  );
}
