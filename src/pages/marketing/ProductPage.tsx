import type { ComponentType } from 'react';
import type { CustomTypeOptions } from 'i18next';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { Section } from '../../components/ui/Section';
import { StepList, type Step } from '../../components/ui/StepList';
import type { RouteId } from '../../config/routes';
import { HotlineRoi, SecretaryRoi } from '../../features/roi/islands';
import { useT } from '../../i18n/language';
import {
  ProductActions,
  ProductBenefits,
  ProductCalculator,
  ProductCta,
  ProductFeatures,
  ProductIntro,
  ProductSpecs,
  ProductStats,
  ProductTestimonials,
} from './ProductSections';

/**
 * The three product pages (AI Contact Center, AI Hotlines, AI Secretary) are one page, told by
 * data: which sections a product shows, in which order, and where in its namespace each section's
 * words are. The words stay in the translations (one namespace per product, so a page ships only
 * its own); the typecheck makes sure each section points at words of the shape it renders.
 */
type ProductNs = 'contactCenter' | 'hotlines' | 'secretary';
type Texts<N extends ProductNs> = CustomTypeOptions['resources'][N];
/** The keys of a product's texts whose words have the shape a section renders. */
type KeyWith<N extends ProductNs, Shape> = { [K in keyof Texts<N>]: Texts<N>[K] extends Shape ? K : never }[keyof Texts<N>] & string;

interface StatsTexts {
  title: string;
  items: readonly { value: string; label: string; description: string }[];
}
interface CardsTexts {
  title: string;
  intro: string;
  items: readonly { title: string; text: string }[];
}
interface BenefitGroup {
  title: string;
  items: readonly string[];
}
interface BenefitsTexts {
  title: string;
  customers: BenefitGroup;
  business: BenefitGroup;
}
interface StepsTexts {
  title: string;
  intro: string;
  steps: readonly Step[];
}
interface SpecsTexts {
  title: string;
  intro: string;
  items: readonly { label: string; value: string }[];
}
interface TestimonialsTexts {
  title: string;
  items: readonly { quote: string; name: string; role: string }[];
}

type SectionDef<N extends ProductNs> =
  | { kind: 'stats'; key: KeyWith<N, StatsTexts> }
  | { kind: 'cards'; key: KeyWith<N, CardsTexts> }
  | { kind: 'benefits'; key: KeyWith<N, BenefitsTexts> }
  | { kind: 'steps'; key: KeyWith<N, StepsTexts> }
  | { kind: 'specs'; key: KeyWith<N, SpecsTexts> }
  | { kind: 'testimonials'; key: KeyWith<N, TestimonialsTexts> }
  | { kind: 'calculator'; Calculator: ComponentType };

interface ProductDef<N extends ProductNs> {
  readonly ns: N;
  /** The product's name as it appears in the contact e-mail's subject (not translated). */
  readonly product: string;
  readonly sections: readonly SectionDef<N>[];
  readonly related: readonly RouteId[];
}

const contactCenter: ProductDef<'contactCenter'> = {
  ns: 'contactCenter',
  product: 'AI Contact Center',
  sections: [
    { kind: 'stats', key: 'stats' },
    { kind: 'cards', key: 'features' },
    { kind: 'benefits', key: 'benefits' },
    { kind: 'steps', key: 'implementation' },
  ],
  related: ['hotlines', 'secretary', 'pricing'],
};

const hotlines: ProductDef<'hotlines'> = {
  ns: 'hotlines',
  product: 'AI Hotlines',
  sections: [
    { kind: 'cards', key: 'features' },
    { kind: 'specs', key: 'technical' },
    { kind: 'calculator', Calculator: HotlineRoi },
  ],
  related: ['contactCenter', 'secretary', 'pricing'],
};

const secretary: ProductDef<'secretary'> = {
  ns: 'secretary',
  product: 'AI Secretary',
  sections: [
    { kind: 'cards', key: 'features' },
    { kind: 'cards', key: 'integrations' },
    { kind: 'calculator', Calculator: SecretaryRoi },
    { kind: 'testimonials', key: 'testimonials' },
  ],
  related: ['contactCenter', 'hotlines', 'pricing'],
};

/** A looked-up group of words, of the shape its key was checked for in the definition. */
type Lookup = (key: string) => unknown;

/** A section's body, from its words; the heading and the introduction are the same for all. */
function SectionBody<N extends ProductNs>({ section, texts }: { section: Exclude<SectionDef<N>, { kind: 'calculator' }>; texts: unknown }) {
  switch (section.kind) {
    case 'stats':
      return <ProductStats items={(texts as StatsTexts).items} />;
    case 'cards':
      return <ProductFeatures items={(texts as CardsTexts).items} />;
    case 'benefits': {
      const { customers, business } = texts as BenefitsTexts;
      return <ProductBenefits groups={[customers, business]} />;
    }
    case 'steps':
      return <StepList steps={(texts as StepsTexts).steps} />;
    case 'specs':
      return <ProductSpecs items={(texts as SpecsTexts).items} />;
    case 'testimonials':
      return <ProductTestimonials items={(texts as TestimonialsTexts).items} />;
  }
}

function ProductSection<N extends ProductNs>({ section, words }: { section: SectionDef<N>; words: Lookup }) {
  if (section.kind === 'calculator') {
    return (
      <ProductCalculator>
        <section.Calculator />
      </ProductCalculator>
    );
  }
  const texts = words(section.key) as { title: string; intro?: string };
  return (
    <Section title={texts.title}>
      {texts.intro !== undefined && <ProductIntro>{texts.intro}</ProductIntro>}
      <SectionBody section={section} texts={texts} />
    </Section>
  );
}

/** Every product page: header with both calls to action, the product's sections, closing call, related pages. */
function ProductPage<N extends ProductNs>({ def }: { def: ProductDef<N> }) {
  const { t } = useT(def.ns);
  // The keys were checked against the namespace's shape in the definition; i18next's key types
  // cannot follow a key that is a type parameter, so the lookup here is untyped.
  const lookup = t as unknown as (key: string, options?: { returnObjects: true }) => unknown;
  const text = (key: 'heading' | 'lead' | 'contact' | 'related' | 'cta.title' | 'cta.text') => String(lookup(key));
  const words: Lookup = (key) => lookup(key, { returnObjects: true });
  return (
    <>
      <PageHeader title={text('heading')} lead={text('lead')}>
        <ProductActions product={def.product} contactLabel={text('contact')} />
      </PageHeader>
      {def.sections.map((section, index) => (
        <ProductSection key={index} section={section} words={words} />
      ))}
      <ProductCta title={text('cta.title')} text={text('cta.text')} product={def.product} contactLabel={text('contact')} />
      <RelatedLinks title={text('related')} ids={def.related} />
    </>
  );
}

export function ContactCenterPage() {
  return <ProductPage def={contactCenter} />;
}

export function HotlinesPage() {
  return <ProductPage def={hotlines} />;
}

export function SecretaryPage() {
  return <ProductPage def={secretary} />;
}
