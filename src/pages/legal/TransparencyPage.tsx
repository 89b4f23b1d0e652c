import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { persona } from '../../config/persona';
import { site } from '../../config/site';
import { useT } from '../../i18n/language';
import { LegalBlocks, LegalDocument, LegalFactCard, LegalPageLink, LegalText } from './LegalSections';

/** Values the statement's texts name: the contact address and the coach's name. */
const values = { returnObjects: true, email: site.contactEmail, name: persona.name } as const;

export default function TransparencyPage() {
  const { t } = useT('transparency');
  const labels = t('sections.aiSystems.labels', values);
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')} />
      <LegalDocument
        tocLabel={t('toc')}
        chapters={[
          {
            id: 'ki-systeme',
            title: t('sections.aiSystems.title'),
            content: (
              <>
                {t('sections.aiSystems.intro', values).map((paragraph) => (
                  <p key={paragraph} className="leading-7 text-slate-700">
                    <LegalText>{paragraph}</LegalText>
                  </p>
                ))}
                <ul className="grid gap-6">
                  {t('sections.aiSystems.systems', values).map((system) => (
                    <li key={system.title}>
                      <LegalFactCard
                        title={system.title}
                        facts={[
                          { label: labels.purpose, text: system.purpose },
                          { label: labels.function, text: system.function },
                          { label: labels.disclosure, text: system.disclosure },
                          { label: labels.limits, text: system.limits },
                        ]}
                      />
                    </li>
                  ))}
                </ul>
              </>
            ),
          },
          {
            id: 'hosting-und-sicherheit',
            title: t('sections.hosting.title'),
            content: <LegalBlocks blocks={t('sections.hosting.blocks', values)} />,
          },
          {
            id: 'dsgvo',
            title: t('sections.gdpr.title'),
            content: (
              <>
                <LegalBlocks blocks={t('sections.gdpr.blocks', values)} />
                <LegalPageLink to="privacy">{t('sections.gdpr.privacyLink')}</LegalPageLink>
              </>
            ),
          },
          {
            id: 'kontaktdaten-und-werbung',
            title: t('sections.contactData.title'),
            content: <LegalBlocks blocks={t('sections.contactData.blocks', values)} />,
          },
          {
            id: 'qualitaetssicherung',
            title: t('sections.quality.title'),
            content: <LegalBlocks blocks={t('sections.quality.blocks', values)} />,
          },
          {
            id: 'menschliche-aufsicht',
            title: t('sections.oversight.title'),
            content: <LegalBlocks blocks={t('sections.oversight.blocks', values)} />,
          },
        ]}
      />
      <RelatedLinks title={t('related')} ids={['privacy', 'imprint', 'contact']} />
    </>
  );
}
