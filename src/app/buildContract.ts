/**
 * The contract between the build (scripts/build.ts, with vite.config.ts), which writes every
 * prerendered page, and the entry (src/main.tsx), which reads it in the browser. Both import it,
 * so a name changes in one place and the typecheck follows it everywhere.
 */

/** The `<meta name>` entries the build writes into a prerendered page's head for the entry. */
export const pageMeta = {
  /**
   * Space-separated URLs of the modules that hydrate the page: the app (src/app/boot.tsx and what
   * it imports), the page's chunks and its words in the page's language. The entry preloads them
   * once the page has painted.
   */
  appModules: 'app-modules',
  /** The URL of the whole stylesheet, which the entry applies when the app first changes the page. */
  appStylesheet: 'app-stylesheet',
} as const;

export type PageMetaName = (typeof pageMeta)[keyof typeof pageMeta];

/** A `<meta>` entry as the build writes it (the content is a URL or a list of URLs). */
export function pageMetaTag(name: PageMetaName, content: string): string {
  if (/["<>&]/.test(content)) throw new Error(`<meta name="${name}"> content must be plain URLs: ${content}`);
  return `<meta name="${name}" content="${content}" />`;
}

/** The content of a `<meta>` entry in a page's HTML ('' when it has none), for scripts and tests. */
export function pageMetaFromHtml(html: string, name: PageMetaName): string {
  return new RegExp(`<meta name="${name}" content="([^"]*)"`).exec(html)?.[1] ?? '';
}

/** The content of a `<meta>` entry of the current document ('' when it has none), for the entry. */
export function readPageMeta(name: PageMetaName): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
}

/**
 * The entry chunk (src/main.tsx, the page's one `<script>`): vite.config.ts names it with this
 * pattern, keeps Vite's preload links out of it (the entry preloads the app itself, after the
 * first paint) and the build checks that it did.
 */
export const entryChunk = {
  fileNames: 'assets/entry-[hash].js',
  matches: (file: string): boolean => /(^|\/)entry-[\w-]+\.js$/.test(file),
} as const;

/** Where the build puts the page's head tags and its prerendered markup in index.html. */
export const templateMarkers = { head: '<!--app-head-->', html: '<!--app-html-->' } as const;
