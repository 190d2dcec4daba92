import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { GiftOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { confirmDialog } from '../../../shared/dialog';
import { formatAmount } from '../../../shared/money';
import { showToast } from '../../../shared/toast';
import { demoFundsQuery, takeDemoFunds, walletKeys } from '../api';

/**
 * The demo-funds offer on the assets page (issue 23): shown only while the server offers them
 * to this user (development deposit keys, not yet taken). Asks first, credits once, then goes.
 */
export function DemoFundsCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const info = useQuery(demoFundsQuery());
  const take = useMutation({
    mutationFn: takeDemoFunds,
    onSuccess: (next) => {
      queryClient.setQueryData(walletKeys.demoFunds(), next);
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
      showToast({
        icon: 'success',
        content: t('assets.demo.done', { amount: formatAmount(next.amount, 6), symbol: next.symbol }),
      });
    },
    // the server's words (already taken, switched off): show them and ask the server again
    onError: () => void queryClient.invalidateQueries({ queryKey: walletKeys.demoFunds() }),
  });
  const offer = info.data;
  if (!offer?.offered) return null;
  const amount = { amount: formatAmount(offer.amount, 6), symbol: offer.symbol };

  const ask = async () => {
    const ok = await confirmDialog({
      title: t('assets.demo.confirmTitle'),
      content: t('assets.demo.confirmText', amount),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (ok && !take.isPending) take.mutate();
  };

  return (
    <section className="v-wallet-demo" aria-labelledby="demo-funds-title">
      <GiftOutline className="v-wallet-demo__icon" aria-hidden />
      <div className="v-wallet-demo__text">
        <strong id="demo-funds-title">{t('assets.demo.title', amount)}</strong>
        <span>{t('assets.demo.text')}</span>
      </div>
      <Button size="small" color="primary" loading={take.isPending} onClick={() => void ask()}>
        {t('assets.demo.take')}
      </Button>
    </section>
  );
}
