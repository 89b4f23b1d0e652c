/** Request headers PostgREST reads: the media type asked for, `Prefer`, and the profile headers. */
import { SCHEMA } from './catalog';
import { PgrstError } from './errors';

export interface MediaChoice {
  singular: boolean;
  stripNulls: boolean;
}

export function chooseMedia(request: Request): MediaChoice {
  const accept = request.headers.get('accept');
  if (!accept) return { singular: false, stripNulls: false };
  const offered = accept.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of offered) {
    const [typeRaw = '', ...paramsRaw] = entry.split(';').map((part) => part.trim());
    const type = typeRaw.toLowerCase();
    const params = paramsRaw.map((part) => part.toLowerCase().replace(/\s+/g, ''));
    const stripNulls = params.includes('nulls=stripped');
    if (type === 'application/vnd.pgrst.object+json' || type === 'application/vnd.pgrst.object') {
      return { singular: true, stripNulls };
    }
    if (['application/json', 'application/vnd.pgrst.array+json', '*/*', 'application/*'].includes(type)) {
      return { singular: false, stripNulls };
    }
  }
  throw new PgrstError(406, 'PGRST107', `None of these media types are available: ${offered.map((entry) => entry.split(';')[0]?.trim() ?? '').join(', ')}`);
}

export interface Preferences {
  representation: boolean;
  count: boolean;
  missingDefault: boolean;
  resolution: 'merge' | 'ignore' | null;
}

export function readPreferences(request: Request): Preferences {
  const tokens = (request.headers.get('prefer') ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '');
  const has = (token: string) => tokens.includes(token);
  return {
    representation: has('return=representation'),
    count: has('count=exact') || has('count=planned') || has('count=estimated'),
    missingDefault: has('missing=default'),
    resolution: has('resolution=merge-duplicates') ? 'merge' : has('resolution=ignore-duplicates') ? 'ignore' : null,
  };
}

export function checkProfile(request: Request): void {
  const reading = request.method === 'GET' || request.method === 'HEAD';
  const profile = request.headers.get(reading ? 'accept-profile' : 'content-profile');
  if (profile !== null && profile !== SCHEMA) {
    throw new PgrstError(406, 'PGRST106', `The schema must be one of the following: ${SCHEMA}`);
  }
}
