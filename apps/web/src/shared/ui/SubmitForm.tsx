import { Form, type FormProps } from 'antd-mobile';
import type { ReactNode } from 'react';
import { SubmitButton } from './SubmitButton';
import './form.css';

type SubmitFormProps = Omit<FormProps, 'layout' | 'footer'> & {
  /** The request is on its way: the button is busy. */
  pending: boolean;
  /** The button's words. */
  submit: ReactNode;
};

/**
 * The app's form: labels above their fields and one SubmitButton under them, so every form
 * looks and sends the same way. Extra classes add to `v-form`.
 */
export function SubmitForm({ pending, submit, className, ...rest }: SubmitFormProps) {
  return (
    <Form
      {...rest}
      layout="vertical"
      className={className ? `v-form ${className}` : 'v-form'}
      footer={<SubmitButton pending={pending}>{submit}</SubmitButton>}
    />
  );
}
