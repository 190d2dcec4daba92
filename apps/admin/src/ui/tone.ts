import type { CSSProperties } from 'react';

/**
 * Tag colours with text dark enough on their light background for WCAG AA (4.5:1): antd's preset
 * tag colours measure about 3.5:1.
 */
export const TONE = {
  green: { color: '#135200', background: '#f0f9eb', borderColor: '#95de64' },
  gold: { color: '#613400', background: '#fffbe6', borderColor: '#ffd666' },
  red: { color: '#820014', background: '#fff1f0', borderColor: '#ffa39e' },
  grey: { color: '#262626', background: '#f5f5f5', borderColor: '#d9d9d9' },
} satisfies Record<string, CSSProperties>;

export type Tone = keyof typeof TONE;
