import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AddWithdrawAddressBody,
  CURRENCY_IDS,
  ErrorCode,
  WITHDRAW_ADDRESS_LENGTH_MAX,
  WITHDRAW_ADDRESS_REMARK_MAX,
} from '@verdant/api';
import { Form, Input, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { userCenterQuery } from '../../shared/account';
import { ApiError } from '../../shared/api';
import { codeRules } from '../../shared/form-rules';
import { formatPhone, maskEmail } from '../../shared/format';
import { useGoBack } from '../../shared/navigation';
import { CodeInput } from '../../shared/ui/CodeInput';
import { EmptyState } from '../../shared/ui/EmptyState';
import { FundPasscodeItem } from '../../shared/ui/FundPasscodeItem';
import { allOf, QueryView } from '../../shared/ui/QueryView';
import type { CodeTarget } from '../../shared/verification-code';
import { addWithdrawAddress, walletKeys } from './api';
import { FundPasswordBanner } from './components/Banners';
import { Chips } from './components/Chips';
import { idParam, useCurrencies } from './components/hooks';
import { promptFundPassword } from './components/prompts';
import '../../shared/ui/form.css';
import './wallet.css';
import { SubmitForm } from '../../shared/ui/SubmitForm';

interface Values {
  address?: string;
  remark?: string;
  fund_password?: string;
  code?: string;
}

const FIELDS: readonly string[] = ['address', 'remark', 'fund_password', 'code'];

/** pages/user/address/create: coin, chain, address, fund password and a code (spec §3, §5). */
export default function AddressCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = useGoBack();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const currencies = useCurrencies();
  const center = useQuery(userCenterQuery());
  const [form] = Form.useForm<Values>();
  const [currencyId, setCurrencyId] = useState(idParam(params.get('currency_id'), CURRENCY_IDS.USDT));
  const [chainChoice, setChain] = useState<string | null>(null);

  const mutation = useMutation({
    mutationFn: addWithdrawAddress,
    onSuccess: ({ message }) => {
      Toast.show({ icon: 'success', content: message || t('address.added') });
      void queryClient.invalidateQueries({ queryKey: walletKeys.addresses() });
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
      goBack();
    },
    onError: (e) => {
      if (!(e instanceof ApiError) || e.kind === 'not-logged-in') return;
      if (e.code === ErrorCode.FUND_PASSWORD_UNSET) {
        void promptFundPassword(t, navigate);
        return;
      }
      Toast.show({ content: e.message });
      if (e.field && FIELDS.includes(e.field)) {
        form.setFields([{ name: e.field as keyof Values, errors: [e.message] }]);
      }
    },
  });

  return (
    <QueryView query={allOf(currencies, center)} loading="spinner">
      {([list, user]) => {
        const coins = list.filter((c) => c.can_withdraw && !c.is_fiat && c.chains.length > 0);
        const cur = coins.find((c) => c.id === currencyId) ?? coins[0];
        if (!cur) return <EmptyState text={t('common.noData')} />;
        const chain = chainChoice && cur.chains.includes(chainChoice) ? chainChoice : (cur.chains[0] ?? '');

        // the code goes where the server sends it by default: the e-mail address when there is one
        const via: 'email' | 'mobile' | null = user.email ? 'email' : user.mobile ? 'mobile' : null;
        const getTarget = (): CodeTarget | null =>
          via === 'email'
            ? { kind: 'email', email: user.email ?? '' }
            : via === 'mobile'
              ? { kind: 'mobile', areaCode: user.area_code ?? '', mobile: user.mobile ?? '' }
              : null;
        const sentTo =
          via === 'email' ? maskEmail(user.email ?? '') : formatPhone(user.area_code, user.mobile ?? '');

        const onFinish = (v: Values) => {
          const body: AddWithdrawAddressBody = {
            currency_id: String(cur.id),
            chain,
            address: (v.address ?? '').trim(),
            fund_password: v.fund_password ?? '',
            code: (v.code ?? '').trim(),
            ...(via ? { code_type: via } : {}),
            ...(v.remark?.trim() ? { remark: v.remark.trim() } : {}),
          };
          mutation.mutate(body);
        };

        return (
          <div className="v-wallet-page">
            {!user.has_fund_password && <FundPasswordBanner />}
            <section className="v-wallet-card">
              <Chips
                legend={t('wallet.coin')}
                options={coins.map((c) => ({ value: c.id, label: c.symbol }))}
                value={cur.id}
                onChange={(id) => {
                  setCurrencyId(id);
                  setChain(null);
                }}
              />
              <Chips
                legend={t('wallet.chain')}
                options={cur.chains.map((c) => ({ value: c, label: c }))}
                value={chain}
                onChange={setChain}
              />
            </section>
            <SubmitForm
              form={form}
              className="v-wallet-card v-wallet-card--form"
              onFinish={onFinish}
              pending={mutation.isPending}
              submit={t('common.save')}
            >
              <Form.Item
                name="address"
                label={t('address.address')}
                rules={[{ required: true, whitespace: true, message: t('address.addressRequired') }]}
              >
                <Input
                  placeholder={t('address.addressPlaceholder', { symbol: cur.symbol, chain })}
                  autoComplete="off"
                  maxLength={WITHDRAW_ADDRESS_LENGTH_MAX}
                  clearable
                />
              </Form.Item>
              <Form.Item name="remark" label={t('address.remark')}>
                <Input
                  placeholder={t('address.remarkPlaceholder')}
                  maxLength={WITHDRAW_ADDRESS_REMARK_MAX}
                  clearable
                />
              </Form.Item>
              <FundPasscodeItem name="fund_password" label={t('withdraw.fundPassword')} />
              <Form.Item
                name="code"
                label={via ? t('fund.codeSentTo', { target: sentTo }) : t('auth.code')}
                rules={codeRules(t)}
              >
                <CodeInput purpose="address" getTarget={getTarget} placeholder={t('auth.codePlaceholder')} />
              </Form.Item>
            </SubmitForm>
          </div>
        );
      }}
    </QueryView>
  );
}
