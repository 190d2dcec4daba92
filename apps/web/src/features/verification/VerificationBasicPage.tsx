import { useQuery } from '@tanstack/react-query';
import { ID_ADDRESS_MAX, ID_NAME_MAX, ID_NUMBER_MAX, type RealNameBody } from '@verdant/api';
import { Button, Form, Input } from 'antd-mobile';
import { DownOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { currentLang } from '../../shared/i18n';
import { paths } from '../../shared/paths';
import { QueryView } from '../../shared/ui/QueryView';
import { countriesQuery, submitBasic, verificationStatusQuery } from './api';
import { CountrySheet } from './CountrySheet';
import { StateCard } from './StateCard';
import '../../shared/ui/form.css';
import './verification.css';
import { SubmitForm } from '../../shared/ui/SubmitForm';
import { useSubmitVerification } from './useSubmitVerification';

interface Values {
  country?: string;
  name?: string;
  id_number?: string;
  address?: string;
}

const FIELDS: readonly string[] = ['country', 'name', 'id_number', 'address'];

function CountryField({ value, onChange }: { value?: string; onChange?: (v: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const countries = useQuery(countriesQuery(currentLang()));
  const name = countries.data?.find((c) => c.country === value)?.name;
  return (
    <>
      <button
        type="button"
        className="v-select-box v-verification-select"
        onClick={() => setOpen(true)}
        data-testid="kyc-country"
      >
        <span className={name ? undefined : 'v-verification-select__placeholder'}>
          {name ?? t('kyc.countryPlaceholder')}
        </span>
        <DownOutline />
      </button>
      <CountrySheet
        visible={open}
        countries={countries.data ?? []}
        value={value}
        onSelect={(v) => onChange?.(v)}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** pages/verification/basic: country, name and ID number, for an operator to review. */
export default function VerificationBasicPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const status = useQuery(verificationStatusQuery());
  const [form] = Form.useForm<Values>();

  const mutation = useSubmitVerification(submitBasic, (e) => {
    if (e.field && FIELDS.includes(e.field))
      form.setFields([{ name: e.field as keyof Values, errors: [e.message] }]);
  });

  return (
    <QueryView query={status} loading="spinner">
      {(s) => {
        const sub = s.basic;

        if (!s.can_submit_basic) {
          return (
            <div className="v-verification">
              <StateCard state={s.verification} submission={sub} />
              {sub && (
                <dl className="v-verification-info">
                  <dt>{t('kyc.country')}</dt>
                  <dd>{sub.country_name}</dd>
                  <dt>{t('kyc.name')}</dt>
                  <dd>{sub.name}</dd>
                  <dt>{t('kyc.idNumber')}</dt>
                  <dd>{sub.id_number}</dd>
                  {sub.address && (
                    <>
                      <dt>{t('kyc.address')}</dt>
                      <dd>{sub.address}</dd>
                    </>
                  )}
                </dl>
              )}
              {s.verification === 'verified' && s.can_submit_advanced && (
                <Button
                  block
                  color="primary"
                  size="large"
                  onClick={() => navigate(paths.verificationAdvanced)}
                >
                  {t('kyc.goAdvanced')}
                </Button>
              )}
            </div>
          );
        }

        const onFinish = (v: Values) => {
          const body: RealNameBody = {
            country: v.country ?? '',
            name: (v.name ?? '').trim(),
            id_number: (v.id_number ?? '').trim(),
            ...(v.address?.trim() ? { address: v.address.trim() } : {}),
          };
          mutation.mutate(body);
        };

        return (
          <div className="v-verification">
            {s.verification === 'rejected' && <StateCard state="rejected" submission={sub} />}
            <SubmitForm
              form={form}
              initialValues={sub ? { country: sub.country, name: sub.name, address: sub.address } : undefined}
              onFinish={onFinish}
              pending={mutation.isPending}
              submit={t('kyc.submit')}
            >
              <Form.Item
                name="country"
                label={t('kyc.country')}
                rules={[{ required: true, message: t('kyc.countryRequired') }]}
                className="v-form__plain"
              >
                <CountryField />
              </Form.Item>
              <Form.Item
                name="name"
                label={t('kyc.name')}
                rules={[{ required: true, whitespace: true, message: t('kyc.nameRequired') }]}
              >
                <Input
                  placeholder={t('kyc.namePlaceholder')}
                  maxLength={ID_NAME_MAX}
                  autoComplete="name"
                  clearable
                />
              </Form.Item>
              <Form.Item
                name="id_number"
                label={t('kyc.idNumber')}
                rules={[{ required: true, whitespace: true, message: t('kyc.idNumberRequired') }]}
              >
                <Input
                  placeholder={t('kyc.idNumberPlaceholder')}
                  maxLength={ID_NUMBER_MAX}
                  autoComplete="off"
                  clearable
                />
              </Form.Item>
              <Form.Item name="address" label={`${t('kyc.address')} (${t('bank.optional')})`}>
                <Input
                  placeholder={t('kyc.addressPlaceholder')}
                  maxLength={ID_ADDRESS_MAX}
                  autoComplete="street-address"
                  clearable
                />
              </Form.Item>
            </SubmitForm>
            <p className="v-verification__note">{t('kyc.privacy')}</p>
          </div>
        );
      }}
    </QueryView>
  );
}
