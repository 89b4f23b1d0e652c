import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { buttonClass } from '../../components/ui/buttonStyles';
import { HumanCheck } from '../../components/ui/HumanCheck';
import { getHref } from '../../config/routes';
import { fieldText } from '../../lib/formData';
import { useT } from '../../i18n/language';
import { LoginError, NotAdminError, loginMessages, signInAsAdmin } from '../../services/auth';
import { loadTurnstile, turnstileSiteKey } from '../../services/turnstile';
import { Notice } from './Notice';
import { takeReturnPath } from './returnPath';
import { useAdminSession } from './useAdminSession';

/** A required, labelled input of the login form. */
function Field({ name, type, autoComplete, label }: { name: string; type: 'email' | 'password'; autoComplete: string; label: string }) {
  const id = `admin-${name}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input id={id} name={name} type={type} autoComplete={autoComplete} required className={inputClass} />
    </div>
  );
}

const inputClass =
  'mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 focus-visible:border-brand-700 focus-visible:outline-2 focus-visible:outline-brand-700';

/**
 * The admin sign-in (seed: username of e-mail type, password, 'Login' / 'Logging in...', the error
 * box above the form). The browser's own validation checks the required fields and the e-mail format.
 * Where the operator set a Turnstile site key, Supabase Auth's CAPTCHA protection asks for a token
 * at sign-in too: the form shows the human check and sends its token (one per attempt).
 */
export function LoginForm() {
  const { t } = useT('admin');
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const siteKey = turnstileSiteKey();
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [checks, setChecks] = useState(0);
  const session = useAdminSession();

  // Already signed in as an admin (another tab, a reload): straight on.
  useEffect(() => {
    if (session.status === 'admin' && !busy) void navigate(takeReturnPath() ?? getHref('adminDashboard', 'de'), { replace: true });
  }, [session.status, busy, navigate]);

  async function submit(event: { preventDefault: () => void; currentTarget: HTMLFormElement }) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = fieldText(form, 'username').trim();
    const password = fieldText(form, 'password');
    if (siteKey !== null && captcha === null) {
      setError(t('login.humanCheck'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await signInAsAdmin(email, password, captcha ?? undefined);
      void navigate(takeReturnPath() ?? getHref('adminDashboard', 'de'), { replace: true });
    } catch (caught) {
      if (caught instanceof NotAdminError) setError(t('login.notAdmin'));
      else if (caught instanceof LoginError) setError(caught.message);
      else setError(loginMessages.unexpected);
      setBusy(false);
      // The token is spent: the next attempt needs a fresh one.
      setCaptcha(null);
      if (siteKey !== null) setChecks((count) => count + 1);
    }
  }

  return (
    <div className="mx-auto max-w-md px-4 pb-20">
      {error ? (
        <Notice tone="error" className="mb-6">
          {error}
        </Notice>
      ) : null}
      <form onSubmit={(event) => void submit(event)} className="space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <Field name="username" type="email" autoComplete="username" label={t('login.username')} />
        <Field name="password" type="password" autoComplete="current-password" label={t('login.password')} />
        {siteKey !== null ? (
          <HumanCheck
            label={t('login.humanCheck')}
            siteKey={siteKey}
            load={loadTurnstile}
            onToken={setCaptcha}
            onError={() => setCaptcha(null)}
            resetKey={checks}
          />
        ) : null}
        <button type="submit" disabled={busy} className={buttonClass('primary', 'w-full')}>
          {busy ? t('login.busy') : t('login.submit')}
        </button>
      </form>
    </div>
  );
}
