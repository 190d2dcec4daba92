import { QueryClientProvider } from '@tanstack/react-query';
import { isLang } from '@verdant/api';
import ConfigProvider, { setDefaultConfig } from 'antd-mobile/es/components/config-provider';
import type { Locale } from 'antd-mobile/es/locales/base';
import i18next from 'i18next';
import { type ReactNode, useEffect, useState } from 'react';
import { loadAntdLocale } from './antd-locale';
import { createQueryClient } from './query-client';

interface Props {
  antdLocale: Locale;
  children: ReactNode;
}

export function AppProviders({ antdLocale, children }: Props) {
  const [queryClient] = useState(createQueryClient);
  const [locale, setLocale] = useState(antdLocale);

  // antd-mobile's locale follows the interface language, for components and for Toast/Dialog.
  useEffect(() => {
    let latest = '';
    const onChange = (lng: string) => {
      if (!isLang(lng)) return;
      latest = lng;
      void loadAntdLocale(lng).then((l) => {
        if (latest !== lng) return; // a newer choice won the race
        setDefaultConfig({ locale: l });
        setLocale(l);
      });
    };
    i18next.on('languageChanged', onChange);
    return () => i18next.off('languageChanged', onChange);
  }, []);

  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={locale}>{children}</ConfigProvider>
    </QueryClientProvider>
  );
}
