import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Toast } from 'antd-mobile';
import { DeleteOutline, EditSOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { href, paths } from '../../shared/paths';
import { QueryView } from '../../shared/ui/QueryView';
import { bankCardsQuery, deleteBankCard, walletKeys } from './api';
import './wallet.css';
import './bank-cards.css';

/** pages/bankbind/index: the user's bound bank cards. */
export default function BankCardsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useQuery(bankCardsQuery());
  const remove = useMutation({
    mutationFn: deleteBankCard,
    onSuccess: ({ message }) => {
      Toast.show({ icon: 'success', content: message || t('common.operationSuccess') });
      void queryClient.invalidateQueries({ queryKey: walletKeys.bankCards() });
    },
  });

  const onDelete = async (id: number) => {
    const ok = await Dialog.confirm({
      content: t('bank.deleteConfirm'),
      confirmText: t('bank.delete'),
      cancelText: t('common.cancel'),
    });
    if (ok) remove.mutate(id);
  };

  return (
    <div className="v-wallet-page">
      <QueryView query={list} isEmpty={(l) => l.length === 0}>
        {(cards) => (
          <ul className="v-wallet-bank-cards">
            {cards.map((c) => (
              <li key={c.id} className="v-wallet-bank-card" data-testid="bank-card">
                <div className="v-wallet-bank-card__head">
                  <strong>{c.bank_name}</strong>
                  <span className="v-wallet-bank-card__tools">
                    <button
                      type="button"
                      aria-label={t('bank.edit')}
                      onClick={() => navigate(href('addBank', { id: c.id }))}
                    >
                      <EditSOutline />
                    </button>
                    <button
                      type="button"
                      aria-label={t('bank.delete')}
                      disabled={remove.isPending}
                      onClick={() => void onDelete(c.id)}
                    >
                      <DeleteOutline />
                    </button>
                  </span>
                </div>
                <span className="v-wallet-bank-card__number v-wallet-mono">{c.card_number_masked}</span>
                <span className="v-wallet-bank-card__holder">
                  {c.holder_name}
                  {c.branch && ` · ${c.branch}`}
                </span>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <div className="v-wallet-actions">
        <Button block color="primary" size="large" onClick={() => navigate(paths.addBank)}>
          {t('bank.add')}
        </Button>
      </div>
    </div>
  );
}
