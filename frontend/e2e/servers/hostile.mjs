// The hostile reply of the journeys that check a reply renders inert: markdown with raw HTML,
// an image and a javascript: link. The OpenAI-wire model answers it to "[hostile]", and
// phone.spec.ts streams it itself.
export const HOSTILE = [
  'Here is **something** to try:',
  '',
  '<script>window.pwned = "script"</script>',
  '',
  '<img src="x" onerror="window.pwned = \'img\'">',
  '',
  '![a picture](https://example.com/cup.png)',
  '',
  "[press me](javascript:window.pwned='link') or [read this](https://example.com/read)",
].join('\n');
