/**
 * The subset of Supabase Auth (GoTrue) the app uses, on auth.users / auth.sessions /
 * auth.refresh_tokens: password sign-in, refresh token rotation, the current user, sign-out, the
 * admin user API for the service key, and sign-up: closed, or (with a Turnstile secret) anonymous
 * sign-ins behind CAPTCHA protection (./routes/signup.ts). Status codes, error codes and messages are GoTrue's,
 * because auth-js turns them into the errors the app shows.
 */
import { json } from '../http';
import type { Service, StackContext } from '../types';
import { AuthApiError, badRequest, errorResponse, methodNotAllowed, notFound } from './errors';
import { adminRoutes } from './routes/admin';
import { createAnonymousLimits, signup } from './routes/signup';
import { passwordGrant, refreshGrant } from './routes/token';
import { requireAuthentication } from './sessions';
import { createKnownAddresses, type KnownAddresses } from './knownAddresses';
import { createSignInLimits, type SignInLimits, type TokenBuckets } from './signInLimits';
import { userJson } from './users';

export { AuthApiError } from './errors';
export { createUser, ensureUser, userJson, type NewUser } from './users';

interface Guards {
  limits: SignInLimits;
  known: KnownAddresses;
  /** Anonymous sign-ins per address. */
  anonymous: TokenBuckets;
}

async function route(ctx: StackContext, { limits, known, anonymous }: Guards, request: Request, path: string): Promise<Response> {
  const segments = path.split('/').filter((segment) => segment !== '');
  const method = request.method;
  const url = new URL(request.url);
  const issuer = `${url.origin}/auth/v1`;
  const [head, ...rest] = segments;

  switch (head) {
    case 'health':
      if (rest.length || method !== 'GET') return rest.length ? notFound() : methodNotAllowed();
      return json(200, { version: 'local', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' });
    case 'settings':
      if (rest.length || method !== 'GET') return rest.length ? notFound() : methodNotAllowed();
      return json(200, {
        external: { email: true, phone: false, anonymous_users: ctx.config.captchaSecret != null },
        disable_signup: ctx.config.captchaSecret == null,
        mailer_autoconfirm: false,
        phone_autoconfirm: false,
        sms_provider: '',
        saml_enabled: false,
      });
    case 'token': {
      if (rest.length) return notFound();
      if (method !== 'POST') return methodNotAllowed();
      const grantType = url.searchParams.get('grant_type') ?? '';
      if (grantType === 'password') return passwordGrant(ctx, limits, known, request, issuer);
      if (grantType === 'refresh_token') return refreshGrant(ctx, request, issuer);
      if (grantType === 'id_token' || grantType === 'pkce' || grantType === 'web3') {
        throw badRequest('validation_failed', `${grantType} grant is not available on this instance`);
      }
      throw badRequest('invalid_credentials', 'unsupported_grant_type');
    }
    case 'signup':
      if (rest.length) return notFound();
      if (method !== 'POST') return methodNotAllowed();
      return signup(ctx, anonymous, request, issuer);
    case 'user': {
      if (rest.length) return notFound();
      // Users changing their own e-mail or password (PUT /user) is not offered locally.
      if (method !== 'GET') return methodNotAllowed();
      const { user } = await requireAuthentication(ctx, request);
      return json(200, userJson(user));
    }
    case 'logout': {
      if (rest.length) return notFound();
      if (method !== 'POST') return methodNotAllowed();
      const scope = url.searchParams.get('scope') ?? '';
      if (!['', 'global', 'local', 'others'].includes(scope)) {
        throw badRequest('validation_failed', `Unsupported logout scope "${scope}"`);
      }
      const { user, sessionId } = await requireAuthentication(ctx, request);
      if (sessionId !== null && scope === 'local') {
        await ctx.db.query('delete from auth.sessions where id = $1', [sessionId]);
      } else if (sessionId !== null && scope === 'others') {
        await ctx.db.query('delete from auth.sessions where user_id = $1 and id <> $2', [user.id, sessionId]);
      } else {
        await ctx.db.query('delete from auth.sessions where user_id = $1', [user.id]);
      }
      return new Response(null, { status: 204 });
    }
    case 'admin':
      return adminRoutes(ctx, request, rest);
    default:
      return notFound();
  }
}

export function createAuthService(ctx: StackContext): Service {
  const guards: Guards = {
    limits: createSignInLimits(ctx.config.signInRateLimit),
    known: createKnownAddresses(ctx),
    anonymous: createAnonymousLimits(ctx.config.anonymousSignInsPerHour),
  };
  return {
    async handle(request, path) {
      try {
        return await route(ctx, guards, request, path);
      } catch (error) {
        if (error instanceof AuthApiError) return errorResponse(request, error);
        console.error('[supabase-local auth]', error);
        return errorResponse(request, new AuthApiError(500, 'unexpected_failure', 'Internal Server Error'));
      }
    },
  };
}
