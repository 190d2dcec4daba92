import Button from 'antd-mobile/es/components/button';
import type { ReactNode } from 'react';

/**
 * The one way a form is sent: full width, brand colour, and busy (not clickable) while the
 * request is on its way, so a second tap can't send it twice.
 */
export function SubmitButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <Button block type="submit" color="primary" size="large" loading={pending}>
      {children}
    </Button>
  );
}
