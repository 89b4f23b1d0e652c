import { company } from '../../config/company';

/** The company's postal address, optionally headed by a person (e.g. who is responsible for content). */
export function CompanyAddress({ person, className = 'leading-7 text-slate-800' }: { person?: string; className?: string }) {
  return (
    <address className={`not-italic ${className}`}>
      {person ? (
        <>
          <span className="font-semibold text-slate-900">{person}</span>
          <br />
        </>
      ) : null}
      <span className={person ? undefined : 'font-semibold text-slate-900'}>{company.legalName}</span>
      <br />
      {company.street}
      <br />
      {company.postalCode} {company.city}
      <br />
      {company.country}
    </address>
  );
}
