import type { CodePurpose } from '@verdant/api';
import { Input } from 'antd-mobile';
import type { CodeTarget } from '../verification-code';
import { SendCodeButton } from './SendCodeButton';

interface Props {
  value?: string;
  onChange?: (value: string) => void;
  placeholder?: string;
  purpose: CodePurpose;
  getTarget: () => Promise<CodeTarget | null> | CodeTarget | null;
  id?: string;
}

/** Verification-code field with its "Send code" button inside the same box. */
export function CodeInput({ value, onChange, placeholder, purpose, getTarget, id }: Props) {
  return (
    <div className="v-input-row">
      <Input
        id={id}
        className="v-input-row__input"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={8}
        value={value}
        onChange={onChange}
        placeholder={placeholder}
      />
      <SendCodeButton purpose={purpose} getTarget={getTarget} />
    </div>
  );
}
