/** Window events the app uses to talk across layers without importing each other. */
export const AppEvent = {
  /** Fired after a 999 answer: the session is already cleared. detail: { message, redirect } */
  notLoggedIn: 'verdant:not-logged-in',
  /** Fired whenever token or user change in this tab. */
  session: 'verdant:session',
  /** Fired when the theme changes. */
  theme: 'verdant:theme',
} as const;

export interface NotLoggedInDetail {
  message: string;
  /** false when the caller expected it (logging out with an expired token): stay on the page. */
  redirect: boolean;
}
