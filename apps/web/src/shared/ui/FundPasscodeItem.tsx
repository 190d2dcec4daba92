import { Form } from 'antd-mobile';
import type { Rule } from 'antd-mobile/es/components/form';
import { useTranslation } from 'react-i18next';
import { fundPasswordRules } from '../form-rules';
import { FundPasscode } from './FundPasscode';

interface Props {
  name: string;
  label: string;
  /** The field this one repeats (a new fund password typed twice): it must be the same. */
  sameAs?: string;
}

/** A form field holding a 6-digit fund password (spec §9), on its number pad. */
export function FundPasscodeItem({ name, label, sameAs }: Props) {
  const { t } = useTranslation();
  const same: Rule[] = sameAs
    ? [
        ({ getFieldValue }) => ({
          validator: async (_rule, value: unknown) => {
            if (value !== getFieldValue(sameAs)) throw new Error(t('validation.inconsistent'));
          },
        }),
      ]
    : [];
  return (
    <Form.Item
      name={name}
      label={label}
      rules={[...fundPasswordRules(t), ...same]}
      {...(sameAs ? { dependencies: [sameAs], validateFirst: true } : {})}
      className="v-form__plain"
    >
      <FundPasscode />
    </Form.Item>
  );
}
