import raw from './content.json';

/** A link to one of Percolate's social profiles. */
export interface SocialLink {
  label: string;
  url: string;
}

export interface Testimonial {
  quote: string;
  name: string;
  detail: string;
}

export interface TeamMember {
  name: string;
  role: string;
  school: string;
  degree: string;
  classYear: string;
  /** Path or URL of a square photo. */
  photo: string;
  professionalNetworkUrl: string;
  codeHostingUrl: string;
}

/**
 * The marketing content operators edit (content.json). While `sample` is true
 * the people in it are invented: the pages say so and the server warns at
 * start-up (see the content-status plugin in vite.config.ts).
 */
export interface SiteContent {
  sample: boolean;
  social: {
    codeHosting: SocialLink;
    professionalNetwork: SocialLink;
    photoNetwork: SocialLink;
  };
  testimonials: Testimonial[];
  team: TeamMember[];
  story: string[];
}

export const content: SiteContent = raw;
