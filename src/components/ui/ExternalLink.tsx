import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { useT } from '../../i18n/language';

interface ExternalLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'target' | 'rel'> {
  href: string;
  children: ReactNode;
}

/** A link that opens in a new tab without giving the new page access to this one. */
export function ExternalLink({ href, children, ...rest }: ExternalLinkProps) {
  const { t } = useT();
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" {...rest}>
      {children}
      <span className="sr-only"> {t('opensInNewTab')}</span>
    </a>
  );
}
