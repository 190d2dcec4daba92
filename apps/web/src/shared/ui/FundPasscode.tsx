import { NumberKeyboard, PasscodeInput } from 'antd-mobile';
import { useEffect, useRef } from 'react';
import './widgets.css';

interface Props {
  value?: string;
  onChange?: (v: string) => void;
  onFill?: (v: string) => void;
  error?: boolean;
}

/** A 6-digit passcode with the on-screen number pad (spec §9: the fund password is exactly 6 digits). */
export function FundPasscode(props: Props) {
  const box = useRef<HTMLDivElement>(null);
  // antd-mobile keeps a hidden native input that only its system-keyboard mode uses; with the
  // number pad it is never used, yet it sat in the tab order inside the role=button box (a
  // screen reader met a focusable thing it is told to ignore): switched off.
  useEffect(() => {
    box.current?.querySelector('input.adm-passcode-input-native-input')?.setAttribute('disabled', '');
  }, []);
  return (
    <div ref={box} style={{ display: 'contents' }}>
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
    </div>
  );
}
