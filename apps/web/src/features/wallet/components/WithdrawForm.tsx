import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type CurrencyInfo, ErrorCode, WITHDRAW_REMARK_MAX, type WithdrawBody } from '@verdant/api';
import { Button, Dialog, Input, Toast } from 'antd-mobile';
import { DownOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../shared/api';
import { formatAmount, isGreater, isLess, minusFloor, parseAmount, plus } from '../../../shared/money';
import { href } from '../../../shared/paths';
import { FundPasscode } from '../../../shared/ui/FundPasscode';
import { OptionSheet } from '../../../shared/ui/OptionSheet';
import { QueryView } from '../../../shared/ui/QueryView';
import { isFundPassword } from '../../../shared/validation';
import { addressesQuery, bankCardsQuery, walletKeys, withdraw, withdrawInfoQuery } from '../api';
import { AmountField } from './AmountInput';
import { FundPasswordBanner, VerificationBanner } from './Banners';
import { useOnce } from './hooks';
import { InfoRows } from './InfoRows';
import { promptDestination, promptFundPassword, promptVerification } from './prompts';
import '../../../shared/ui/form.css';
import '../wallet.css';
import './amount-input.css';
import './fields.css';

interface Props {
  cur: CurrencyInfo;
  /** 'address' for a coin to a saved chain address, 'bank' for Bank (9999) to a bound card. */
  kind: 'address' | 'bank';
}

/**
 * The withdrawal form of spec §3/§5: destination, amount, optional remark and the fund password;
 * the fee, what leaves the balance and "credited within 12 hours" are shown before confirming.
 * The server checks every rule again and its answer decides: these checks only save a round trip.
 */
export function WithdrawForm({ cur, kind }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const info = useQuery(withdrawInfoQuery(cur.id));
  const addresses = useQuery({ ...addressesQuery(), enabled: kind === 'address' });
  const cards = useQuery({ ...bankCardsQuery(), enabled: kind === 'bank' });
  const [destination, setDestination] = useState<number | null>(null);
  const [sheet, setSheet] = useState(false);
  const [amount, setAmount] = useState('');
  const [remark, setRemark] = useState('');
  const [password, setPassword] = useState('');
  const [run, confirming] = useOnce();
  const addTo = kind === 'address' ? href('addressCreate', { currency_id: cur.id }) : href('addBank');

  const mutation = useMutation({
    mutationFn: withdraw,
    onSuccess: ({ data, message }) => {
      Toast.show({ icon: 'success', content: message || t('withdraw.submitted') });
      queryClient.setQueryData(walletKeys.withdrawal(data.id), data);
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
      navigate(href('withdrawDetail', { id: data.id }), { replace: true });
    },
    onError: (e) => {
      setPassword('');
      void queryClient.invalidateQueries({ queryKey: walletKeys.withdrawInfo(cur.id) });
      if (!(e instanceof ApiError) || e.kind === 'not-logged-in') return;
      if (e.code === ErrorCode.FUND_PASSWORD_UNSET) void promptFundPassword(t, navigate);
      else if (e.code === ErrorCode.VERIFICATION_REQUIRED) void promptVerification(t, navigate);
      else if (e.code === ErrorCode.WITHDRAW_ADDRESS_REQUIRED)
        void promptDestination(t, navigate, kind, addTo);
      else Toast.show({ content: e.message });
    },
  });

  return (
    <QueryView query={info}>
      {(w) => {
        const d = w.decimals;
        const options =
          kind === 'address'
            ? (addresses.data ?? [])
                .filter((a) => a.currency_id === cur.id)
                .map((a) => ({
                  value: a.id,
                  label: a.remark ? `${a.remark} · ${a.chain}` : a.chain,
                  description: <span className="v-wallet-mono v-wallet-break">{a.address}</span>,
                }))
            : (cards.data ?? []).map((c) => ({
                value: c.id,
                label: `${c.bank_name} ${c.card_number_masked}`,
                description: c.holder_name,
              }));
        const chosen = options.find((o) => o.value === destination) ?? options[0];
        const listLoaded = kind === 'address' ? addresses.isSuccess : cards.isSuccess;

        const parsed = parseAmount(amount, d);
        const total = parsed ? plus(parsed, w.withdraw_fee) : null;
        const most = minusFloor(w.available, w.withdraw_fee);
        const belowMin = parsed !== null && isLess(parsed, w.min_withdraw);
        const tooMuch = total !== null && isGreater(total, w.available);
        const fmt = (v: string) => `${formatAmount(v, d)} ${w.symbol}`;

        const submit = () =>
          run(async () => {
            // spec §5, in its order: where to, how much, the fund password, identity, a fund password set
            if (listLoaded && !chosen) return promptDestination(t, navigate, kind, addTo);
            if (!parsed) {
              Toast.show({ content: t('wallet.amountRequired') });
              return;
            }
            if (belowMin) {
              Toast.show({ content: t('withdraw.belowMin', { min: fmt(w.min_withdraw) }) });
              return;
            }
            if (tooMuch) {
              Toast.show({ content: t('wallet.insufficient') });
              return;
            }
            if (!w.verified) return promptVerification(t, navigate);
            if (!w.has_fund_password) return promptFundPassword(t, navigate);
            if (!isFundPassword(password)) {
              Toast.show({ content: t('withdraw.fundPasswordRequired') });
              return;
            }
            if (!chosen || !total) return;
            const ok = await Dialog.confirm({
              title: t('withdraw.confirmTitle'),
              content: (
                <InfoRows
                  rows={[
                    { label: t('withdraw.to'), value: chosen.label },
                    { label: t('withdraw.receive'), value: fmt(parsed) },
                    { label: t('withdraw.fee'), value: fmt(w.withdraw_fee) },
                    { label: t('withdraw.total'), value: fmt(total), tone: 'strong' },
                  ]}
                />
              ),
              confirmText: t('common.confirm'),
              cancelText: t('common.cancel'),
            });
            if (!ok) return;
            const body: WithdrawBody = {
              currency_id: String(cur.id),
              amount: parsed,
              fund_password: password,
              ...(kind === 'address'
                ? { address_id: String(chosen.value) }
                : { bank_card_id: String(chosen.value) }),
              ...(remark.trim() ? { remark: remark.trim() } : {}),
            };
            await mutation.mutateAsync(body).catch(() => {});
          });

        const busy = confirming || mutation.isPending;

        return (
          <>
            {!w.verified && <VerificationBanner />}
            {w.verified && !w.has_fund_password && <FundPasswordBanner />}
            <section className="v-wallet-card v-wallet-field-card">
              <span className="v-wallet-field-card__label">
                {kind === 'address' ? t('withdraw.address') : t('withdraw.bankCard')}
              </span>
              {listLoaded && options.length === 0 ? (
                <button
                  type="button"
                  className="v-select-box v-wallet-select v-wallet-select--empty"
                  onClick={() => navigate(addTo)}
                >
                  <span>{kind === 'address' ? t('withdraw.addressFirst') : t('withdraw.bankCardFirst')}</span>
                  <DownOutline />
                </button>
              ) : (
                <button
                  type="button"
                  className="v-select-box v-wallet-select"
                  onClick={() => setSheet(true)}
                  data-testid="withdraw-destination"
                >
                  <span className="v-wallet-select__text">
                    <strong>{chosen?.label ?? '—'}</strong>
                    {chosen?.description && <small>{chosen.description}</small>}
                  </span>
                  <DownOutline />
                </button>
              )}

              <AmountField
                id="withdraw-amount"
                label={t('withdraw.amount')}
                value={amount}
                onChange={setAmount}
                decimals={d}
                symbol={w.symbol}
                available={w.available}
                max={most}
                placeholder={t('withdraw.amountPlaceholder', { min: formatAmount(w.min_withdraw, d) })}
              />
              {belowMin && (
                <p className="v-wallet-warning" role="alert">
                  {t('withdraw.belowMin', { min: fmt(w.min_withdraw) })}
                </p>
              )}
              {tooMuch && (
                <p className="v-wallet-warning" role="alert">
                  {t('wallet.insufficient')}
                </p>
              )}

              <label className="v-wallet-field-card__label" htmlFor="withdraw-remark">
                {t('withdraw.remark')}
              </label>
              <div className="v-wallet-amount">
                <Input
                  id="withdraw-remark"
                  className="v-wallet-amount__input"
                  maxLength={WITHDRAW_REMARK_MAX}
                  value={remark}
                  onChange={setRemark}
                  placeholder={t('withdraw.remarkPlaceholder')}
                />
              </div>

              <span className="v-wallet-field-card__label">{t('withdraw.fundPassword')}</span>
              <FundPasscode value={password} onChange={setPassword} />
            </section>

            <InfoRows
              className="v-wallet-card"
              rows={[
                { label: t('withdraw.fee'), value: fmt(w.withdraw_fee) },
                { label: t('withdraw.total'), value: total ? fmt(total) : '—', tone: 'strong' },
                { label: t('withdraw.arrival'), value: w.arrival_text },
                {
                  label: t('withdraw.todayLeft'),
                  value: t('withdraw.todayLeftValue', { left: w.withdrawals_left, max: w.daily_limit }),
                },
              ]}
            />

            <div className="v-wallet-actions">
              <Button
                block
                color="primary"
                size="large"
                disabled={busy || !w.can_withdraw || w.withdrawals_left <= 0}
                loading={mutation.isPending}
                onClick={() => void submit()}
              >
                {w.withdrawals_left <= 0 ? t('withdraw.limitReached') : t('withdraw.submit')}
              </Button>
            </div>
            <p className="v-wallet-page-note">
              {t('withdraw.note', { min: fmt(w.min_withdraw), max: w.daily_limit })}
            </p>

            <OptionSheet
              visible={sheet}
              title={kind === 'address' ? t('withdraw.chooseAddress') : t('withdraw.chooseBankCard')}
              options={options}
              value={chosen?.value ?? null}
              onSelect={setDestination}
              onClose={() => setSheet(false)}
              footer={
                <div className="v-wallet-sheet-footer">
                  <Button block fill="outline" color="primary" onClick={() => navigate(addTo)}>
                    {kind === 'address' ? t('address.add') : t('bank.add')}
                  </Button>
                </div>
              }
            />
          </>
        );
      }}
    </QueryView>
  );
}
