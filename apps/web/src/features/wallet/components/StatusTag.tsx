import type { MoneyRequestDisplay } from '@verdant/api';
import { Tag } from 'antd-mobile';
import './records.css';

const COLOR: Record<MoneyRequestDisplay, 'success' | 'danger' | 'warning'> = {
  passed: 'success',
  rejected: 'danger',
  under_review: 'warning',
};

/** Passed (green), rejected (red), under review (amber): the server's words, our colours. */
export function StatusTag({ code, text }: { code: MoneyRequestDisplay; text: string }) {
  return (
    <Tag color={COLOR[code] ?? 'default'} fill="outline" className="v-wallet-status-tag" data-status={code}>
      {text}
    </Tag>
  );
}
