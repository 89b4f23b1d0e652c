import { CompanyAddress } from '../../components/ui/CompanyAddress';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { company } from '../../config/company';
import { persona } from '../../config/persona';
import { site } from '../../config/site';
import { useT } from '../../i18n/language';
import { LegalBlocks, LegalContactFacts, LegalDocument, LegalNote } from './LegalSections';

/** Values the policy's texts name: the controller, the contact address and the coach's name. */
const values = { returnObjects: true, company: company.legalName, email: site.contactEmail, name: persona.name } as const;

export default function PrivacyPage() {
  const { t } = useT('privacy');
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')} />
      <LegalDocument
        tocLabel={t('toc')}
        chapters={[
          {
            id: 'auf-einen-blick',
            title: t('sections.glance.title'),
            content: <LegalBlocks blocks={t('sections.glance.blocks', values)} />,
          },
          {
            id: 'verantwortliche-stelle',
            title: t('sections.general.title'),
            content: (
              <>
                <LegalBlocks blocks={t('sections.general.controller', values)} />
                <CompanyAddress />
                <LegalContactFacts emailLabel={t('email')} phoneLabel={t('phone')} />
                <LegalBlocks blocks={t('sections.general.blocks', values)} />
              </>
            ),
          },
          {
            id: 'beauftragte',
            title: t('sections.officers.title'),
            content: (
              <>
                <LegalNote>{t('sections.officers.note')}</LegalNote>
                <LegalBlocks cards blocks={t('sections.officers.blocks', values)} />
              </>
            ),
          },
          {
            id: 'kuenstliche-intelligenz',
            title: t('sections.ai.title'),
            content: <LegalBlocks blocks={t('sections.ai.blocks', values)} />,
          },
          {
            id: 'datenerfassung',
            title: t('sections.dataCollection.title'),
            content: <LegalBlocks blocks={t('sections.dataCollection.blocks', values)} />,
          },
          {
            id: 'analyse',
            title: t('sections.analytics.title'),
            content: <LegalBlocks blocks={t('sections.analytics.blocks', values)} />,
          },
          {
            id: 'newsletter',
            title: t('sections.newsletter.title'),
            content: <LegalBlocks blocks={t('sections.newsletter.blocks', values)} />,
          },
          {
            id: 'plugins-und-tools',
            title: t('sections.plugins.title'),
            content: <LegalBlocks blocks={t('sections.plugins.blocks', values)} />,
          },
          {
            id: 'ihre-rechte',
            title: t('sections.rights.title'),
            content: <LegalBlocks blocks={t('sections.rights.blocks', values)} />,
          },
        ]}
      />
      <RelatedLinks title={t('related')} ids={['imprint', 'transparency', 'contact']} />
    </>
  );
}
