/** Request bodies read the way GoTrue's retrieveRequestParams reads them, and the checks on their fields. */
import { isRecord } from '../shared';
import { badRequest, AuthApiError } from './errors';

/** GoTrue rejects larger bodies before parsing them. */
const MAX_AUTH_BODY_BYTES = 1 << 20;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type Json = Record<string, unknown>;

/** Reads a JSON object body the way GoTrue's retrieveRequestParams does (bad JSON → 400 bad_json). */
export async function readParams(request: Request): Promise<Json> {
  const text = await request.text();
  if (Buffer.byteLength(text, 'utf8') > MAX_AUTH_BODY_BYTES) {
    throw new AuthApiError(413, 'request_entity_too_large', `Request body too large (max ${MAX_AUTH_BODY_BYTES} bytes)`);
  }
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw badRequest('bad_json', `Could not parse request body as JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed === null) return {};
  if (!isRecord(parsed)) {
    throw badRequest('bad_json', `Could not parse request body as JSON: json: cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into Go value of type object`);
  }
  return parsed;
}

export function stringParam(params: Json, key: string): string {
  const value = params[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') {
    throw badRequest('bad_json', `Could not parse request body as JSON: json: cannot unmarshal ${typeof value} into Go struct field .${key} of type string`);
  }
  return value;
}

export function objectParam(params: Json, key: string): Json | null {
  const value = params[key];
  if (value === undefined || value === null) return null;
  if (!isRecord(value)) {
    throw badRequest('bad_json', `Could not parse request body as JSON: json: cannot unmarshal ${typeof value} into Go struct field .${key} of type map[string]interface {}`);
  }
  return value;
}

export function validateEmail(email: string): string {
  if (email === '') throw badRequest('validation_failed', 'An email address is required');
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long');
  if (!EMAIL_PATTERN.test(email)) throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  return email.toLowerCase();
}

/** GoTrue's UpdateAppMetaData/UpdateUserMetaData: merge, and a null value removes the key. */
export function mergeMetadata(current: Json | null, update: Json): Json {
  const merged: Json = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) Reflect.deleteProperty(merged, key);
    else merged[key] = value;
  }
  return merged;
}
