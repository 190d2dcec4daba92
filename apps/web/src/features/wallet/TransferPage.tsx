import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CURRENCY_IDS, ErrorCode, WALLET_ACCOUNT_TYPES, type WalletAccountType } from '@verdant/api';
import { Button, Dialog, Toast } from 'antd-mobile';
import { DownOutline, LoopOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../shared/api';
import { formatAmount, isGreater, parseAmount } from '../../shared/money';
import { paths } from '../../shared/paths';
import { ErrorState } from '../../shared/ui/ErrorState';
import { OptionSheet } from '../../shared/ui/OptionSheet';
import { allOf, QueryView } from '../../shared/ui/QueryView';
import { transfer, walletKeys, walletListQuery } from './api';
import { AmountField } from './components/AmountInput';
import { idParam, isAccountType, useCurrencies, useOnce } from './components/hooks';
import '../../shared/ui/form.css';
import './wallet.css';
import './components/fields.css';
import './transfer.css';
import { RecordsAction } from './components/RecordsAction';

type Sheet = 'from' | 'to' | 'coin' | null;

/** pages/assets/transfer/index: between the user's own spot, option, contract and trust accounts. */
export default function TransferPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const currencies = useCurrencies();
  const list = useQuery(walletListQuery());

  const initialFrom = params.get('from');
  const initialTo = params.get('to');
  const [from, setFrom] = useState<WalletAccountType>(isAccountType(initialFrom) ? initialFrom : 'spot');
  const [to, setTo] = useState<WalletAccountType>(() => {
    if (isAccountType(initialTo) && initialTo !== from) return initialTo;
    return from === 'contract' ? 'spot' : 'contract';
  });
  const [currencyId, setCurrencyId] = useState<number>(
    idParam(params.get('currency_id'), CURRENCY_IDS.USDT) ?? CURRENCY_IDS.USDT,
  );
  const [amount, setAmount] = useState('');
  const [sheet, setSheet] = useState<Sheet>(null);
  const [serverInsufficient, setServerInsufficient] = useState(false);
  const [run, confirming] = useOnce();

  const mutation = useMutation({
    mutationFn: transfer,
    onSuccess: ({ message }) => {
      Toast.show({ icon: 'success', content: message || t('transfer.done') });
      setAmount('');
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
    },
    onError: (e) => {
      if (e instanceof ApiError && e.code === ErrorCode.INSUFFICIENT_BALANCE) setServerInsufficient(true);
      if (!(e instanceof ApiError && e.kind === 'not-logged-in')) Toast.show({ content: e.message });
      void queryClient.invalidateQueries({ queryKey: walletKeys.list() });
    },
  });

  return (
    <QueryView query={allOf(currencies, list)}>
      {([coins, wallet]) => {
        const cur = currencies.byId(currencyId) ?? coins[0];
        if (!cur) return <ErrorState error={null} />;
        const decimals = cur.decimals;
        const balance = wallet.accounts
          .find((a) => a.type === from)
          ?.currencies.find((c) => c.currency_id === cur.id);
        const available = balance?.available ?? '0';
        const parsed = parseAmount(amount, decimals);
        const insufficient =
          (parsed !== null && isGreater(parsed, available)) || (serverInsufficient && parsed !== null);
        const canSubmit = parsed !== null && !insufficient && !mutation.isPending && !confirming;

        const accountLabel = (a: WalletAccountType) => t(`wallet.account.${a}`);
        const accountOptions = WALLET_ACCOUNT_TYPES.map((a) => ({ value: a, label: accountLabel(a) }));

        const pick = (side: 'from' | 'to', a: WalletAccountType) => {
          setServerInsufficient(false);
          // choosing the other side's account swaps the two: a transfer always has two accounts
          if (side === 'from') {
            if (a === to) setTo(from);
            setFrom(a);
          } else {
            if (a === from) setFrom(to);
            setTo(a);
          }
        };

        const swap = () => {
          setServerInsufficient(false);
          setFrom(to);
          setTo(from);
        };

        const submit = () =>
          run(async () => {
            if (!parsed) {
              Toast.show({ content: t('wallet.amountRequired') });
              return;
            }
            const ok = await Dialog.confirm({
              title: t('transfer.confirmTitle'),
              content: t('transfer.confirmBody', {
                amount: formatAmount(parsed, decimals),
                symbol: cur.symbol,
                from: accountLabel(from),
                to: accountLabel(to),
              }),
              confirmText: t('common.confirm'),
              cancelText: t('common.cancel'),
            });
            if (!ok) return;
            await mutation
              .mutateAsync({ currency_id: String(cur.id), from, to, amount: parsed })
              .catch(() => {});
          });

        return (
          <div className="v-wallet-page">
            <RecordsAction to={paths.transferRecord} label={t('titles.transferRecord')} />

            <section className="v-wallet-card v-wallet-transfer">
              <div className="v-wallet-transfer__sides">
                <button type="button" className="v-wallet-transfer__side" onClick={() => setSheet('from')}>
                  <small>{t('transfer.from')}</small>
                  <strong data-testid="transfer-from">{accountLabel(from)}</strong>
                  <DownOutline />
                </button>
                <button type="button" className="v-wallet-transfer__side" onClick={() => setSheet('to')}>
                  <small>{t('transfer.to')}</small>
                  <strong data-testid="transfer-to">{accountLabel(to)}</strong>
                  <DownOutline />
                </button>
              </div>
              <button
                type="button"
                className="v-wallet-transfer__swap"
                aria-label={t('transfer.swap')}
                onClick={swap}
              >
                <LoopOutline />
              </button>
            </section>

            <section className="v-wallet-card v-wallet-field-card">
              <span className="v-wallet-field-card__label">{t('wallet.coin')}</span>
              <button type="button" className="v-select-box v-wallet-select" onClick={() => setSheet('coin')}>
                <strong>{cur.symbol}</strong>
                <small>{cur.name}</small>
                <DownOutline />
              </button>

              <AmountField
                id="transfer-amount"
                label={t('wallet.amount')}
                value={amount}
                onChange={(v) => {
                  setServerInsufficient(false);
                  setAmount(v);
                }}
                decimals={decimals}
                symbol={cur.symbol}
                available={available}
                placeholder={t('wallet.amountPlaceholder')}
              />
              {insufficient && (
                <p className="v-wallet-warning" role="alert">
                  {t('wallet.insufficient')}
                </p>
              )}
            </section>

            <div className="v-wallet-actions">
              <Button
                block
                color="primary"
                size="large"
                disabled={!canSubmit}
                loading={mutation.isPending}
                onClick={() => void submit()}
              >
                {t('transfer.submit')}
              </Button>
            </div>
            <p className="v-wallet-page-note">{t('transfer.note')}</p>

            <OptionSheet
              visible={sheet === 'from' || sheet === 'to'}
              title={sheet === 'to' ? t('transfer.to') : t('transfer.from')}
              options={accountOptions}
              value={sheet === 'to' ? to : from}
              onSelect={(a) => pick(sheet === 'to' ? 'to' : 'from', a)}
              onClose={() => setSheet(null)}
            />
            <OptionSheet
              visible={sheet === 'coin'}
              title={t('wallet.chooseCoin')}
              options={coins.map((c) => ({ value: c.id, label: c.symbol, description: c.name }))}
              value={cur.id}
              onSelect={(id) => {
                setCurrencyId(id);
                setAmount('');
                setServerInsufficient(false);
              }}
              onClose={() => setSheet(null)}
            />
          </div>
        );
      }}
    </QueryView>
  );
}
