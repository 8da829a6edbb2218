export const HOSTILE: string;
