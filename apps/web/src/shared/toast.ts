import type { ToastShowProps } from 'antd-mobile/es/components/toast';

// Toast pulls in antd-mobile's animation library; the first paint does not need it, so it loads
// on first use (and is prefetched once the app is idle, see main.tsx).
type ToastApi = typeof import('antd-mobile/es/components/toast').default;

let loading: Promise<ToastApi> | null = null;

export function loadToast(): Promise<ToastApi> {
  loading ??= import('antd-mobile/es/components/toast').then((m) => m.default);
  return loading;
}

export interface ToastHandle {
  close: () => void;
}

/** Shows a toast; calls keep their order even while the module is still loading. */
export function showToast(props: ToastShowProps | string): ToastHandle {
  let closed = false;
  let handle: ToastHandle | null = null;
  void loadToast().then((Toast) => {
    if (!closed) handle = Toast.show(props);
  });
  return {
    close: () => {
      closed = true;
      handle?.close();
    },
  };
}
