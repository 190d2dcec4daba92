import { queryOptions } from '@tanstack/react-query';
import {
  API_BASE,
  LANG_HEADER,
  type ReferralInvite,
  ReferralPaths,
  type ReferralRanking,
  type ReferralRebatePage,
  type ReferralRefereePage,
  type ReferralShare,
} from '@verdant/api';
import { mulDecimal } from '@verdant/engine';
import { api, withTimeout } from '../../shared/api';
import { currentLang } from '../../shared/i18n';
import { getToken } from '../../shared/session';

/** Query keys; the user's own data sits under ['user'] so logout drops it. */
export const promotionKeys = {
  ranking: ['promotion', 'ranking'] as const,
  mine: ['user', 'promotion'] as const,
  invite: () => ['user', 'promotion', 'invite'] as const,
  share: () => ['user', 'promotion', 'share'] as const,
  referees: () => ['user', 'promotion', 'referees'] as const,
  rebates: () => ['user', 'promotion', 'rebates'] as const,
  poster: (lang: string) => ['user', 'promotion', 'poster', lang] as const,
};

export const inviteQuery = () =>
  queryOptions({
    queryKey: promotionKeys.invite(),
    queryFn: ({ signal }) => api.get<ReferralInvite>(ReferralPaths.invite, undefined, { signal }),
  });

export const shareQuery = () =>
  queryOptions({
    queryKey: promotionKeys.share(),
    queryFn: ({ signal }) => api.get<ReferralShare>(ReferralPaths.myShare, undefined, { signal }),
  });

export const rankingQuery = () =>
  queryOptions({
    queryKey: promotionKeys.ranking,
    queryFn: ({ signal }) => api.get<ReferralRanking>(ReferralPaths.inviteList, undefined, { signal }),
  });

export const refereesQuery = () =>
  queryOptions({
    queryKey: promotionKeys.referees(),
    queryFn: ({ signal }) =>
      api.get<ReferralRefereePage>(ReferralPaths.myInviteList, { limit: 100 }, { signal }),
  });

export const rebatesQuery = () =>
  queryOptions({
    queryKey: promotionKeys.rebates(),
    queryFn: ({ signal }) =>
      api.get<ReferralRebatePage>(ReferralPaths.myAccountReturn, { limit: 100 }, { signal }),
  });

/** The poster picture in the user's language, fetched when the sheet opens. */
export const posterQuery = (lang: string) =>
  queryOptions({
    queryKey: promotionKeys.poster(lang),
    queryFn: ({ signal }) => fetchPoster(signal),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** "0.2" → "20" (percent), exact. */
export const percent = (fraction: string) => mulDecimal(fraction, '100');

/** A path the server answers ("/h5/#/…") as the full address someone else can open. */
export const absolute = (path: string) => new URL(path, window.location.origin).toString();

/**
 * The poster (an SVG picture, not in the envelope) as a blob: fetched with the session token,
 * 60 s like any request. Throws when it cannot be had.
 */
export async function fetchPoster(signal?: AbortSignal): Promise<Blob> {
  const deadline = withTimeout(signal);
  try {
    const headers: Record<string, string> = { [LANG_HEADER]: currentLang() };
    const token = getToken();
    if (token) headers.Authorization = token;
    const res = await fetch(`${API_BASE}/${ReferralPaths.myPoster}`, { headers, signal: deadline.signal });
    if (!res.ok) throw new Error(`status ${res.status}`);
    return await res.blob();
  } finally {
    deadline.done();
  }
}

/**
 * Saves the poster as a PNG the phone's gallery takes: the SVG is drawn on a canvas at its own
 * size and downloaded. Throws on any failure (the page says "failed to save picture").
 */
export async function savePoster(svgUrl: string, name: string): Promise<void> {
  const img = new Image();
  img.src = svgUrl;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth || 600;
  canvas.height = img.naturalHeight || 900;
  const g = canvas.getContext('2d');
  if (!g) throw new Error('no canvas');
  g.drawImage(img, 0, 0, canvas.width, canvas.height);
  const png = await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no picture'))), 'image/png'),
  );
  const url = URL.createObjectURL(png);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    // the download has its copy once click() returns
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
