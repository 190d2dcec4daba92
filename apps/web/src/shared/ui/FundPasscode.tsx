import { NumberKeyboard, PasscodeInput } from 'antd-mobile';
import './widgets.css';

interface Props {
  value?: string;
  onChange?: (v: string) => void;
  onFill?: (v: string) => void;
  error?: boolean;
}

/** A 6-digit passcode with the on-screen number pad (spec §9: the fund password is exactly 6 digits). */
export function FundPasscode(props: Props) {
  return (
    <PasscodeInput
      length={6}
      seperated
      value={props.value}
      onChange={props.onChange}
      onFill={props.onFill}
      error={props.error}
      keyboard={<NumberKeyboard />}
      className="v-passcode"
    />
  );
}
