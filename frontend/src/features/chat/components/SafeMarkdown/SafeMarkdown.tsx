import type { ComponentPropsWithoutRef } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import classes from './SafeMarkdown.module.css';
import { safeUrl } from './safeUrl';

/**
 * The markdown a reply may use (architecture §5: a safe subset, no raw HTML):
 * paragraphs, emphasis, lists, inline code and links. Anything else (headings,
 * tables, quotes, code blocks) keeps its text without its element; images are
 * not shown at all; raw HTML in the text shows as the literal text it is,
 * never parsed (no rehype-raw).
 */
const ALLOWED = ['p', 'br', 'em', 'strong', 'del', 'ul', 'ol', 'li', 'code', 'a'];

function Link({ href, children }: ComponentPropsWithoutRef<'a'>) {
  if (!href) return <span>{children}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

const components: Components = {
  a: ({ href, children }) => <Link href={href ?? undefined}>{children}</Link>,
};

/** A reply's text rendered as the safe markdown subset. */
export function SafeMarkdown({ text }: { text: string }) {
  return (
    <div className={classes.markdown}>
      <Markdown
        remarkPlugins={[remarkGfm]}
        allowedElements={ALLOWED}
        unwrapDisallowed
        urlTransform={(url) => safeUrl(url)}
        components={components}
      >
        {text}
      </Markdown>
    </div>
  );
}
