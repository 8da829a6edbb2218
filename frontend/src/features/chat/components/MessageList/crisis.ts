/** Whether a reply carries the crisis resources (the crisis reply, the check-in, or a reply they were added to): every resources text, for any country, names findahelpline.com. */
export function hasCrisisResources(text: string): boolean {
  return text.includes('findahelpline.com');
}
