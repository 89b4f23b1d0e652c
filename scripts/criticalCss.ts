/**
 * The rules of a stylesheet that a page's HTML can use. The site's CSS is Tailwind: almost every
 * rule is keyed by a class. A rule stays when one of its selectors names only classes that occur
 * in the page's `class` attributes, whatever else the selector says (`:hover`, `:where()`,
 * `:has()`, `::marker`, media queries), so a state or a breakpoint of an element on the page never
 * loses its rule. Rules without a class (the base layer, attribute selectors), `@property`,
 * `@keyframes` and the `@layer` order statements all stay. Blocks left empty are removed.
 */
import postcss, { type ChildNode, type Container } from 'postcss';

/** The class names used in an HTML document's `class` attributes. */
export function classesIn(html: string): Set<string> {
  const classes = new Set<string>();
  for (const [, value = ''] of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of value.split(/\s+/)) if (name) classes.add(decodeEntities(name));
  }
  return classes;
}

const decodeEntities = (text: string) =>
  text.replace(/&(amp|quot|#39|lt|gt);/g, (_, entity: string) => ({ amp: '&', quot: '"', '#39': "'", lt: '<', gt: '>' })[entity] ?? '');

/** A CSS identifier as written in a selector (`hover\:bg-x`, `\32 xl\:p-4`), unescaped. */
const unescapeIdentifier = (text: string) =>
  text.replace(/\\([0-9a-fA-F]{1,6})\s?|\\(.)/g, (_, hex: string | undefined, char: string | undefined) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : (char ?? ''),
  );

/** The class names a selector requires; class-like text inside attribute values is skipped. */
export function classesOfSelector(selector: string): string[] {
  const withoutStrings = selector.replace(/\[[^\]]*\]/g, (attribute) => (attribute.includes('.') ? '[]' : attribute));
  return [...withoutStrings.matchAll(/\.((?:\\[0-9a-fA-F]{1,6}\s?|\\.|[\w-])+)/g)].map(([, name = '']) => unescapeIdentifier(name));
}

function prune(container: Container, used: Set<string>): void {
  container.each((node: ChildNode) => {
    if (node.type === 'rule') {
      // Keyframe steps (`from`, `50%`) have no classes, so they stay with their @keyframes.
      const kept = node.selectors.filter((selector) => classesOfSelector(selector).every((name) => used.has(name)));
      if (kept.length === 0) node.remove();
      else if (kept.length < node.selectors.length) node.selectors = kept;
    } else if (node.type === 'atrule' && node.nodes) {
      if (node.name === 'keyframes' || node.name === 'property' || node.name === 'font-face') return;
      prune(node, used);
      if (node.nodes.length > 0) return;
      // An emptied layer keeps its place in the layer order, which the whole stylesheet repeats.
      if (node.name === 'layer') node.replaceWith(postcss.atRule({ name: 'layer', params: node.params }));
      else node.remove();
    }
  });
}

/** `css` with only the rules the elements of `html` can match (see above). */
export function criticalCss(css: string, html: string): string {
  const root = postcss.parse(css);
  prune(root, classesIn(html));
  return root.toString();
}
