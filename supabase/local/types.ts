import type { PGlite } from '@electric-sql/pglite';
import type { LocalStackConfig } from './config';

/** What every service of the local stack gets: the database and the configuration. */
export interface StackContext {
  readonly db: PGlite;
  readonly config: LocalStackConfig;
  /** Folder for stored objects (storage bytes); a temp folder when the stack runs in memory. */
  readonly filesDir: string;
  /** The stack's own origin (`http://127.0.0.1:<port>`), known once it listens. */
  readonly origin: () => string;
}

/** One API of the stack (auth, rest, storage, functions): a Fetch-style handler below its prefix. */
export interface Service {
  /** `path` is the part after the prefix, e.g. `/token` for `/auth/v1/token`. */
  handle(request: Request, path: string): Promise<Response>;
  close?(): Promise<void>;
}
