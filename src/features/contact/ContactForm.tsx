import { useId, useState, type ReactNode } from 'react';
import { buttonClass } from '../../components/ui/buttonStyles';
import { site } from '../../config/site';
import { useT } from '../../i18n/language';
import {
  contactFieldOrder,
  emptyContact,
  validateContact,
  type ContactErrors,
  type ContactField,
  type ContactValues,
} from '../../lib/contactForm';
import { buildContactMailto } from '../../lib/mailto';

interface ContactFormProps {
  product: string;
  onSent: () => void;
  openMail: (url: string) => void;
}

const inputClass =
  'mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:outline-2 focus:outline-brand-600 aria-[invalid=true]:border-red-700';

/** The contact form: validated here, then handed to the visitor's mail program. */
export function ContactForm({ product, onSent, openMail }: ContactFormProps) {
  const { t } = useT();
  const idPrefix = useId();
  const [values, setValues] = useState<ContactValues>(emptyContact);
  const [errors, setErrors] = useState<ContactErrors>({});

  const idOf = (field: ContactField) => `${idPrefix}-${field}`;
  const set = (field: ContactField) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const bind = (field: ContactField) => ({
    id: idOf(field),
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${idOf(field)}-error` : undefined,
  });

  const salutationLabel = (value: ContactValues['salutation']) =>
    value === 'mr' ? t('contact.salutationMr') : value === 'mrs' ? t('contact.salutationMrs') : '';

  const submit = (event: { preventDefault: () => void }) => {
    event.preventDefault();
    const found = validateContact(values);
    setErrors(found);
    const firstInvalid = contactFieldOrder.find((field) => found[field]);
    if (firstInvalid) {
      document.getElementById(idOf(firstInvalid))?.focus();
      return;
    }
    openMail(
      buildContactMailto({
        to: site.contactEmail,
        product,
        lines: [
          { label: t('contact.mail.salutation'), value: salutationLabel(values.salutation) },
          { label: t('contact.mail.academicTitle'), value: values.academicTitle },
          { label: t('contact.mail.name'), value: values.name },
          { label: t('contact.mail.phone'), value: values.phone },
          { label: t('contact.mail.email'), value: values.email },
        ],
        message: { label: t('contact.mail.message'), value: values.message },
      }),
    );
    setValues(emptyContact);
    onSent();
  };

  const field = (name: ContactField, label: string, required: boolean, control: ReactNode) => (
    <div>
      <label htmlFor={idOf(name)} className="block text-sm font-medium text-slate-800">
        {label}
        {required ? (
          <>
            <span aria-hidden="true" className="text-red-700">
              {' '}
              *
            </span>
            <span className="sr-only"> ({t('contact.required')})</span>
          </>
        ) : null}
      </label>
      {control}
      {errors[name] ? (
        <p id={`${idOf(name)}-error`} className="mt-1 text-sm text-red-700">
          {t(`contact.errors.${errors[name]}`)}
        </p>
      ) : null}
    </div>
  );

  return (
    <form noValidate onSubmit={submit} className="mt-6 grid gap-4 sm:grid-cols-2">
      {field(
        'salutation',
        t('contact.salutation'),
        true,
        <select
          {...bind('salutation')}
          required
          value={values.salutation}
          onChange={(event) => set('salutation')(event.target.value)}
          className={inputClass}
        >
          <option value="">{t('contact.salutationPlaceholder')}</option>
          <option value="mr">{t('contact.salutationMr')}</option>
          <option value="mrs">{t('contact.salutationMrs')}</option>
        </select>,
      )}
      {field(
        'academicTitle',
        t('contact.academicTitle'),
        false,
        <input
          {...bind('academicTitle')}
          type="text"
          autoComplete="honorific-prefix"
          placeholder={t('contact.academicTitlePlaceholder')}
          value={values.academicTitle}
          onChange={(event) => set('academicTitle')(event.target.value)}
          className={inputClass}
        />,
      )}
      <div className="sm:col-span-2">
        {field(
          'name',
          t('contact.name'),
          true,
          <input
            {...bind('name')}
            type="text"
            required
            autoComplete="name"
            value={values.name}
            onChange={(event) => set('name')(event.target.value)}
            className={inputClass}
          />,
        )}
      </div>
      {field(
        'phone',
        t('contact.phone'),
        true,
        <input
          {...bind('phone')}
          type="tel"
          required
          autoComplete="tel"
          value={values.phone}
          onChange={(event) => set('phone')(event.target.value)}
          className={inputClass}
        />,
      )}
      {field(
        'email',
        t('contact.email'),
        true,
        <input
          {...bind('email')}
          type="email"
          required
          autoComplete="email"
          value={values.email}
          onChange={(event) => set('email')(event.target.value)}
          className={inputClass}
        />,
      )}
      <div className="sm:col-span-2">
        {field(
          'message',
          t('contact.message'),
          true,
          <textarea
            {...bind('message')}
            rows={4}
            required
            value={values.message}
            onChange={(event) => set('message')(event.target.value)}
            className={inputClass}
          />,
        )}
      </div>
      <p className="text-xs leading-5 text-slate-700 sm:col-span-2">{t('contact.consent')}</p>
      <div className="sm:col-span-2">
        <button type="submit" className={buttonClass('primary', 'w-full py-3 sm:w-auto')}>
          {t('contact.submit')}
        </button>
      </div>
    </form>
  );
}
