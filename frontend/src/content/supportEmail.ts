/**
 * The mailbox the pages name (footer, /team). index.html carries it in a meta
 * tag and the server writes PERCOLATE_SUPPORT_EMAIL there, so it is always the
 * mailbox the contact form delivers to, known without a request.
 */
export function supportEmail(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="percolate-support-email"]')?.content.trim() ?? '';
}
