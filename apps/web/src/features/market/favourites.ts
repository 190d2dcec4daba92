import { useQueryClient } from '@tanstack/react-query';
import type { MarketTicker } from '@verdant/api';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../shared/api';
import { confirmDialog } from '../../shared/dialog';
import { loginHref } from '../../shared/paths';
import { isLoggedIn, useSession } from '../../shared/session';
import { showToast } from '../../shared/toast';
import { setFavourite, tradeKeys } from './api';

/** Adds or removes a favourite market; visitors are asked to log in first. */
export function useToggleFavourite(): (symbol: string, on: boolean) => Promise<void> {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const session = useSession();

  return useCallback(
    async (symbol: string, on: boolean) => {
      if (!isLoggedIn(session)) {
        const go = await confirmDialog({
          content: t('market.loginForFavourites'),
          confirmText: t('market.logIn'),
          cancelText: t('common.cancel'),
        });
        if (go) navigate(loginHref(location.pathname + location.search));
        return;
      }
      const flip = (value: boolean) =>
        queryClient.setQueriesData<MarketTicker[]>({ queryKey: ['market', 'tickers'] }, (old) =>
          old?.map((m) => (m.symbol === symbol ? { ...m, favourite: value } : m)),
        );
      flip(on);
      try {
        const res = await setFavourite(symbol, on);
        showToast({ content: res.message || t(on ? 'market.favouriteAdded' : 'market.favouriteRemoved') });
        void queryClient.invalidateQueries({ queryKey: tradeKeys.favourites() });
      } catch (e) {
        flip(!on);
        if (!(e instanceof ApiError)) showToast({ content: t('common.error') });
      }
    },
    [session, queryClient, navigate, location, t],
  );
}
