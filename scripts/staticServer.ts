/**
 * Serves the built site as a static host would: files from dist/, `<path>/index.html` for
 * prerendered pages, spa.html for client-only routes, the nearest 404.html (that of the path's
 * folder or of a folder above it: `/products/404.html` is the English one) with status 404 for
 * the rest, the
 * headers from dist/_headers (so the Content-Security-Policy is exercised locally and in the
 * end-to-end tests), and text compressed as static hosts and CDNs do: brotli when the browser accepts
 * it (each file compressed once, at the highest quality for files under 128 KB), gzip otherwise.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, createGzip } from 'node:zlib';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
  '.mp3': 'audio/mpeg',
  '.wasm': 'application/wasm',
};
const compressible = /^(text\/|application\/(json|xml|javascript)|image\/svg)/;

interface HeaderRule {
  pattern: RegExp;
  headers: [string, string][];
}

/** Parses the Netlify/Cloudflare `_headers` format: a path pattern, then indented headers. */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line.trim().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
      rules.push({ pattern: new RegExp(`^${source}$`), headers: [] });
      continue;
    }
    const rule = rules.at(-1);
    const colon = line.indexOf(':');
    if (rule && colon > 0) rule.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

const brotliCache = new Map<string, { mtimeMs: number; body: Buffer }>();

/** The file compressed with brotli, from the cache while the file is unchanged. */
function brotli(file: string): Buffer {
  const { mtimeMs, size } = statSync(file);
  const cached = brotliCache.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.body;
  const body = brotliCompressSync(readFileSync(file), {
    params: { [constants.BROTLI_PARAM_QUALITY]: size < 128 * 1024 ? 11 : 5, [constants.BROTLI_PARAM_SIZE_HINT]: size },
  });
  brotliCache.set(file, { mtimeMs, body });
  return body;
}

export interface StaticServerOptions {
  dir: string;
  clientOnlyPrefixes: readonly string[];
}

export function createStaticServer({ dir, clientOnlyPrefixes }: StaticServerOptions): Server {
  const base = resolve(dir);
  const headersPath = join(base, '_headers');
  const rules = existsSync(headersPath) ? parseHeadersFile(readFileSync(headersPath, 'utf8')) : [];

  /** The not-found page nearest to a file: in its folder or the closest folder above it. */
  const notFound = (candidate: string): { file: string; status: number } => {
    for (let folder = dirname(candidate); folder.startsWith(base + sep); folder = dirname(folder)) {
      const page = join(folder, '404.html');
      if (existsSync(page)) return { file: page, status: 404 };
    }
    return { file: join(base, '404.html'), status: 404 };
  };

  const fileFor = (pathname: string): { file: string; status: number } => {
    const safe = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
    const candidate = resolve(base, safe);
    if (candidate !== base && !candidate.startsWith(base + sep)) return { file: join(base, '404.html'), status: 404 };
    if (existsSync(candidate) && statSync(candidate).isFile()) return { file: candidate, status: 200 };
    const index = join(candidate, 'index.html');
    if (existsSync(index)) return { file: index, status: 200 };
    if (clientOnlyPrefixes.some((prefix) => `${pathname}/`.startsWith(prefix))) {
      return { file: join(base, 'spa.html'), status: 200 };
    }
    return notFound(candidate);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname: string;
    try {
      pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      decodeURIComponent(pathname);
    } catch {
      res.writeHead(400).end('Bad request');
      return;
    }
    if (pathname.length > 1 && pathname.endsWith('/') && !pathname.startsWith('/assets/')) {
      res.writeHead(308, { Location: pathname.replace(/\/+$/, '') }).end();
      return;
    }
    const { file, status } = fileFor(pathname);
    const type = types[extname(file)] ?? 'application/octet-stream';
    for (const rule of rules) {
      if (rule.pattern.test(pathname)) for (const [name, value] of rule.headers) res.setHeader(name, value);
    }
    res.setHeader('Content-Type', type);
    if (type.startsWith('text/html')) res.setHeader('Cache-Control', 'no-cache');
    const accepted = compressible.test(type) ? (req.headers['accept-encoding'] ?? '') : '';
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
    const brotliBody = encoding === 'br' ? brotli(file) : null;
    if (encoding) {
      res.setHeader('Content-Encoding', encoding);
      res.setHeader('Vary', 'Accept-Encoding');
    }
    if (encoding !== 'gzip') res.setHeader('Content-Length', brotliBody?.length ?? statSync(file).size);
    res.writeHead(status);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    if (brotliBody) {
      res.end(brotliBody);
      return;
    }
    const stream = createReadStream(file);
    stream.on('error', () => res.destroy());
    if (encoding === 'gzip') stream.pipe(createGzip()).pipe(res);
    else stream.pipe(res);
  };

  return createServer((req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      console.error(error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
}
