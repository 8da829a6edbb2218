import { render } from '@testing-library/react';
import { plainText } from './plainText';
import { SafeMarkdown } from './SafeMarkdown';
import { safeUrl } from './safeUrl';

const HOSTILE = [
  'Some **bold** and *soft* words, with `code`.',
  '',
  '- one',
  '- two',
  '',
  '1. first',
  '',
  '<script>window.hacked = true</script>',
  '',
  'An image: <img src=x onerror="window.hacked = true"> and ![a cup](https://example.com/cup.png)',
  '',
  '[run me](javascript:alert(1)) [data](data:text/html,hi) [relative](/profile) [a good read](https://example.com/read)',
].join('\n');

describe('SafeMarkdown', () => {
  it('renders the safe subset: paragraphs, emphasis, lists and inline code', () => {
    const { container } = render(<SafeMarkdown text={HOSTILE} />);
    expect(container.querySelector('strong')).toHaveTextContent('bold');
    expect(container.querySelector('em')).toHaveTextContent('soft');
    expect(container.querySelector('code')).toHaveTextContent('code');
    expect(container.querySelectorAll('ul li')).toHaveLength(2);
    expect(container.querySelectorAll('ol li')).toHaveLength(1);
    expect(container.querySelectorAll('p').length).toBeGreaterThan(1);
  });

  it('never makes HTML from the text: no script, no img, raw tags stay inert text', () => {
    const { container } = render(<SafeMarkdown text={HOSTILE} />);
    expect(container.querySelector('script, img, iframe, [onerror]')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="window.hacked = true">');
    expect((window as unknown as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it('keeps http(s) links only, opening in a new tab with noopener noreferrer', () => {
    const { container } = render(<SafeMarkdown text={HOSTILE} />);
    const links = [...container.querySelectorAll('a')];
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveTextContent('a good read');
    expect(links[0]).toHaveAttribute('href', 'https://example.com/read');
    expect(links[0]).toHaveAttribute('target', '_blank');
    expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer');
    // The others keep their words, without an address.
    expect(container.textContent).toContain('run me');
    expect(container.textContent).toContain('relative');
    expect(container.innerHTML).not.toMatch(/javascript:|data:text/);
  });

  it('safeUrl accepts http and https only', () => {
    expect(safeUrl('https://example.com/a')).toBe('https://example.com/a');
    expect(safeUrl('http://example.com/')).toBe('http://example.com/');
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('JaVaScRiPt:alert(1)')).toBeNull();
    expect(safeUrl('mailto:a@b.c')).toBeNull();
    expect(safeUrl('/relative')).toBeNull();
  });
});

describe('plainText', () => {
  it('gives speech the words without the marks', () => {
    expect(plainText('Some **bold** and *soft* words with `code`, [a link](https://x.y).\n- one\n- two')).toBe(
      'Some bold and soft words with code, a link.\none\ntwo',
    );
  });
});
