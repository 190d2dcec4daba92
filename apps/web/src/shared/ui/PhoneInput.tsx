import { useQuery } from '@tanstack/react-query';
import { Input } from 'antd-mobile';
import { DownFill } from 'antd-mobile-icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { areaCodesQuery } from '../area-codes';
import { currentLang } from '../i18n';
import { AreaCodePicker } from './AreaCodePicker';
import './phone-input.css';

/** Thailand first (the default language's country); any code the server lists otherwise. */
export const DEFAULT_AREA_CODE = '66';

interface Props {
  value?: string;
  onChange?: (value: string) => void;
  areaCode: string;
  onAreaCodeChange: (code: string) => void;
  placeholder?: string;
  id?: string;
}

/** Phone number with its dialling code in front; the code list comes from POST /api/area_code. */
export function PhoneInput({ value, onChange, areaCode, onAreaCodeChange, placeholder, id }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { data: codes = [] } = useQuery(areaCodesQuery(currentLang()));

  // If the server does not list the current code, start from its first one.
  useEffect(() => {
    const first = codes[0];
    if (first && !codes.some((c) => c.area_code === areaCode)) onAreaCodeChange(first.area_code);
  }, [codes, areaCode, onAreaCodeChange]);

  return (
    <div className="v-input-row">
      <button
        type="button"
        className="v-area-code"
        onClick={() => setOpen(true)}
        // the name starts with what the button shows (WCAG 2.5.3), then says what it does
        aria-label={`+${areaCode} ${t('auth.selectAreaCode')}`}
      >
        +{areaCode}
        <DownFill />
      </button>
      <Input
        id={id}
        className="v-input-row__input"
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        value={value}
        onChange={onChange}
        placeholder={placeholder}
        clearable
      />
      <AreaCodePicker
        visible={open}
        codes={codes}
        value={areaCode}
        onSelect={onAreaCodeChange}
        onClose={() => setOpen(false)}
      />
    </div>
  );
}
