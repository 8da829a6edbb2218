/** Whether a reply carries the crisis resources (the crisis reply, the check-in, or a reply they were added to). */
export function hasCrisisResources(text: string): boolean {
  return text.includes('findahelpline.com') && text.includes('741741');
}
