import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { formatTime } from '../../shared/datetime';
import { useGoBack } from '../../shared/navigation';
import { href } from '../../shared/paths';
import { EmptyState } from '../../shared/ui/EmptyState';
import { QueryView } from '../../shared/ui/QueryView';
import { addressesQuery, deleteWithdrawAddress, walletKeys } from './api';
import { CopyValue } from './components/CopyValue';
import { idParam } from './components/hooks';
import { InfoRows } from './components/InfoRows';
import './wallet.css';

/** pages/user/address/address?id=: one saved withdrawal address, to copy, use or delete. */
export default function AddressPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = useGoBack();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const id = idParam(params.get('id'));
  const list = useQuery(addressesQuery());

  const remove = useMutation({
    mutationFn: deleteWithdrawAddress,
    onSuccess: ({ message }) => {
      Toast.show({ icon: 'success', content: message || t('common.operationSuccess') });
      void queryClient.invalidateQueries({ queryKey: walletKeys.addresses() });
      goBack();
    },
  });

  return (
    <QueryView query={list} loading="spinner">
      {(addresses) => {
        const a = addresses.find((x) => x.id === id);
        if (!a) return <EmptyState text={t('common.noData')} />;

        const onDelete = async () => {
          const ok = await Dialog.confirm({
            content: t('address.deleteConfirm'),
            confirmText: t('address.delete'),
            cancelText: t('common.cancel'),
          });
          if (ok) remove.mutate(a.id);
        };

        return (
          <div className="v-wallet-page">
            <InfoRows
              className="v-wallet-card"
              rows={[
                { label: t('wallet.coin'), value: a.symbol, tone: 'strong' },
                { label: t('wallet.chain'), value: a.chain },
                { label: t('address.address'), value: <CopyValue value={a.address} /> },
                a.remark ? { label: t('address.remark'), value: a.remark } : null,
                { label: t('record.created'), value: formatTime(a.created_at) },
              ]}
            />
            <div className="v-wallet-actions v-wallet-actions--stack">
              <Button
                block
                color="primary"
                size="large"
                onClick={() => navigate(href('withdraw', { currency_id: a.currency_id }))}
              >
                {t('address.withdrawHere')}
              </Button>
              <Button
                block
                size="large"
                className="v-danger-button"
                loading={remove.isPending}
                disabled={remove.isPending}
                onClick={() => void onDelete()}
              >
                {t('address.delete')}
              </Button>
            </div>
          </div>
        );
      }}
    </QueryView>
  );
}
