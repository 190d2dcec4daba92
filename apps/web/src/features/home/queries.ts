/** Queries of the Home tab live under this key, so pull-to-refresh refetches exactly them. */
export const homeKeys = { all: ['home'] as const };
