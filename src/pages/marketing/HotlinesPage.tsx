import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { Section } from '../../components/ui/Section';
import { HotlineRoi } from '../../features/roi/islands';
import { useT } from '../../i18n/language';
import {
  ProductActions,
  ProductCalculator,
  ProductCta,
  ProductFeatures,
  ProductIntro,
  ProductSpecs,
} from './ProductSections';

/** The product name as it appears in the contact e-mail's subject. */
const product = 'AI Hotlines';

export default function HotlinesPage() {
  const { t } = useT('hotlines');
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <ProductActions product={product} contactLabel={t('contact')} />
      </PageHeader>
      <Section title={t('features.title')}>
        <ProductIntro>{t('features.intro')}</ProductIntro>
        <ProductFeatures items={t('features.items', { returnObjects: true })} />
      </Section>
      <Section title={t('technical.title')}>
        <ProductIntro>{t('technical.intro')}</ProductIntro>
        <ProductSpecs items={t('technical.items', { returnObjects: true })} />
      </Section>
      <ProductCalculator>
        <HotlineRoi />
      </ProductCalculator>
      <ProductCta title={t('cta.title')} text={t('cta.text')} product={product} contactLabel={t('contact')} />
      <RelatedLinks title={t('related')} ids={['contactCenter', 'secretary', 'pricing']} />
    </>
  );
}
