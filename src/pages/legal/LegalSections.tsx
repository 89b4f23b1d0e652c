import { Fragment, useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Card } from '../../components/ui/Card';
import { Section } from '../../components/ui/Section';
import { getHref, type RouteId } from '../../config/routes';
import { site } from '../../config/site';
import { useLanguage } from '../../i18n/language';

/** One piece of legal text: an optional h3, paragraphs and a bullet list, in that order. */
export interface LegalBlock {
  readonly title?: string | undefined;
  readonly text?: readonly string[] | undefined;
  readonly list?: readonly string[] | undefined;
}

/** One h2 section of a legal page; its id is the anchor the table of contents links to. */
export interface LegalChapter {
  readonly id: string;
  readonly title: string;
  readonly content: ReactNode;
}

const linkClass = 'font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900';

/** A legal text with the contact address turned into a mail link wherever it appears. */
export function LegalText({ children }: { children: string }) {
  const parts = children.split(site.contactEmail);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? (
            <a className={`${linkClass} wrap-anywhere`} href={`mailto:${site.contactEmail}`}>
              {site.contactEmail}
            </a>
          ) : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

function BlockBody({ block }: { block: LegalBlock }) {
  return (
    <>
      {block.text?.map((paragraph) => (
        <p key={paragraph} className="leading-7 text-slate-700">
          <LegalText>{paragraph}</LegalText>
        </p>
      ))}
      {block.list ? (
        <ul className="list-disc space-y-2 pl-6 leading-7 text-slate-700 marker:text-brand-700">
          {block.list.map((item) => (
            <li key={item}>
              <LegalText>{item}</LegalText>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** Blocks one after another, as running text; `cards` sets them side by side as panels. */
export function LegalBlocks({ blocks, cards = false }: { blocks: readonly LegalBlock[]; cards?: boolean }) {
  if (cards) {
    return (
      <div className="grid gap-6 md:grid-cols-2">
        {blocks.map((block, index) => (
          <Card key={block.title ?? index} className="min-w-0 space-y-3">
            {block.title ? <h3 className="text-lg font-semibold text-slate-900">{block.title}</h3> : null}
            <BlockBody block={block} />
          </Card>
        ))}
      </div>
    );
  }
  return (
    <>
      {blocks.map((block, index) => (
        <div key={block.title ?? index} className="space-y-3">
          {block.title ? <h3 className="text-lg font-semibold text-slate-900">{block.title}</h3> : null}
          <BlockBody block={block} />
        </div>
      ))}
    </>
  );
}

/** A link to another page of the site, in the visitor's language, set as its own line. */
export function LegalPageLink({ to, children }: { to: RouteId; children: string }) {
  const { lang } = useLanguage();
  return (
    <p>
      <Link to={getHref(to, lang)} className={linkClass}>
        {children}
      </Link>
    </p>
  );
}

/** A highlighted remark, e.g. that the company details are example values. */
export function LegalNote({ children }: { children: string }) {
  return (
    <p className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm leading-6 text-amber-900">
      <LegalText>{children}</LegalText>
    </p>
  );
}

/** Label–value pairs set as a definition list, two columns from small screens up. */
export function LegalFacts({ facts }: { facts: readonly { label: string; value: ReactNode }[] }) {
  return (
    <dl className="grid gap-6 sm:grid-cols-2">
      {facts.map((fact) => (
        <div key={fact.label}>
          <dt className="font-semibold text-slate-900">{fact.label}</dt>
          <dd className="mt-1 leading-7 text-slate-700">{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The site's contact e-mail and phone number as links. */
export function LegalContactFacts({ emailLabel, phoneLabel }: { emailLabel: string; phoneLabel: string }) {
  return (
    <LegalFacts
      facts={[
        {
          label: emailLabel,
          value: (
            <a className={`${linkClass} wrap-anywhere`} href={`mailto:${site.contactEmail}`}>
              {site.contactEmail}
            </a>
          ),
        },
        {
          label: phoneLabel,
          value: (
            <a className={linkClass} href={`tel:${site.contactPhone.replace(/[^\d+]/g, '')}`}>
              {site.contactPhone}
            </a>
          ),
        },
      ]}
    />
  );
}

/** Label–text pairs inside a card, e.g. purpose, function, disclosure and limits of an AI system. */
export function LegalFactCard({ title, facts }: { title: string; facts: readonly { label: string; text: string }[] }) {
  return (
    <Card className="h-full min-w-0">
      <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
      <dl className="mt-4 space-y-4">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt className="text-sm font-semibold uppercase tracking-wide text-brand-800">{fact.label}</dt>
            <dd className="mt-1 leading-7 text-slate-700">
              <LegalText>{fact.text}</LegalText>
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/**
 * A legal page's body: an optional remark and table of contents with in-page links, then one h2
 * section per chapter. The sections keep a scroll margin so the sticky header never covers a
 * heading reached by a link.
 */
export function LegalDocument({
  tocLabel,
  note,
  chapters,
}: {
  tocLabel?: string;
  note?: string;
  chapters: readonly LegalChapter[];
}) {
  const tocHeadingId = useId();
  return (
    <>
      {note ? (
        <div className="mx-auto max-w-6xl px-4 pt-4 sm:px-6 lg:px-8">
          <div className="max-w-3xl">
            <LegalNote>{note}</LegalNote>
          </div>
        </div>
      ) : null}
      {tocLabel ? (
        <nav aria-labelledby={tocHeadingId} className="mx-auto max-w-6xl px-4 pt-4 hyphens-auto wrap-break-word sm:px-6 lg:px-8">
          <div className="rounded-2xl border border-slate-200 bg-slate-50 p-6">
            <h2 id={tocHeadingId} className="text-lg font-semibold text-slate-900">
              {tocLabel}
            </h2>
            <ol className="mt-4 list-decimal space-y-2 pl-6 marker:text-slate-700 sm:columns-2 sm:gap-10">
              {chapters.map((chapter) => (
                <li key={chapter.id} className="break-inside-avoid">
                  <a className={linkClass} href={`#${chapter.id}`}>
                    {chapter.title}
                  </a>
                </li>
              ))}
            </ol>
          </div>
        </nav>
      ) : null}
      {chapters.map((chapter) => (
        <Section key={chapter.id} id={chapter.id} title={chapter.title} className="scroll-mt-24 hyphens-auto wrap-break-word">
          <div className="max-w-3xl space-y-8">{chapter.content}</div>
        </Section>
      ))}
    </>
  );
}
