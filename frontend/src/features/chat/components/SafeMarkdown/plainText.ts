/**
 * The words of a markdown reply without its marks, for the browser's speech:
 * links read as their text, emphasis and code as their words, list markers
 * and raw HTML not at all.
 */
export function plainText(markdown: string): string {
  return markdown
    .replace(/<[^>]*>/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(?:#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|\*|_|~~|`)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/`/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
}
