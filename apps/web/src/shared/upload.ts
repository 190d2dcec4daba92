import { API_BASE, LANG_HEADER, Paths, type UploadResult } from '@verdant/api';
import { useEffect, useState } from 'react';
import { api, withTimeout } from './api';
import { currentLang } from './i18n';
import { getToken } from './session';

/**
 * The largest picture the app sends (spec §5: a maximum file size is enforced). The server's own
 * limit (UPLOAD_MAX_BYTES, 5 MB by default) has the last word and answers in the user's language.
 */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_MAX_MB = UPLOAD_MAX_BYTES / 1024 / 1024;
export const UPLOAD_ACCEPT = 'image/jpeg,image/png,image/webp';

/** POST /api/upload (multipart field `file`): the stored name to put in a form. 60 s, as any request. */
export function uploadPicture(file: File): Promise<UploadResult> {
  const body = new FormData();
  body.append('file', file);
  // the uploader shows its own progress and the caller its own message
  return api.post<UploadResult>(Paths.upload, body, { loading: false, toastError: false });
}

/**
 * One of the user's private uploads (a voucher, an identity photo) as a blob: URL. It is fetched
 * with the session token, never through a public address, and released when no longer shown.
 */
export function usePrivateImage(name: string | null | undefined): { url: string | null; failed: boolean } {
  const [state, setState] = useState<{ name: string; url: string | null; failed: boolean } | null>(null);

  useEffect(() => {
    if (!name) return;
    const controller = new AbortController();
    // spec §7: a download gives up after 60 s, like a request, and shows as failed
    const deadline = withTimeout(controller.signal);
    let objectUrl: string | null = null;
    const headers: Record<string, string> = { [LANG_HEADER]: currentLang() };
    const token = getToken();
    if (token) headers.Authorization = token;
    fetch(`${API_BASE}/${Paths.upload}/${encodeURIComponent(name)}`, { headers, signal: deadline.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(`status ${res.status}`);
        objectUrl = URL.createObjectURL(await res.blob());
        setState({ name, url: objectUrl, failed: false });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ name, url: null, failed: true });
      })
      .finally(deadline.done);
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [name]);

  if (!name || state?.name !== name) return { url: null, failed: false };
  return { url: state.url, failed: state.failed };
}
