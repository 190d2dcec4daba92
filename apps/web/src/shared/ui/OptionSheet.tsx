import { List, Popup } from 'antd-mobile';
import './widgets.css';
import { CheckOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { EmptyState } from './EmptyState';

export interface SheetOption<V extends string | number> {
  value: V;
  label: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
}

interface Props<V extends string | number> {
  visible: boolean;
  title: string;
  options: SheetOption<V>[];
  value?: V | null;
  onSelect: (value: V) => void;
  onClose: () => void;
  emptyText?: string;
  footer?: ReactNode;
}

/** A bottom sheet to choose one of a few options (an account, a coin, an address). */
export function OptionSheet<V extends string | number>({
  visible,
  title,
  options,
  value,
  onSelect,
  onClose,
  emptyText,
  footer,
}: Props<V>) {
  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyClassName="v-picker-sheet">
      <h2 className="v-picker-sheet__title">{title}</h2>
      <div className="v-picker-sheet__list">
        {options.length === 0 && emptyText ? (
          <EmptyState text={emptyText} />
        ) : (
          <List>
            {options.map((o) => (
              <List.Item
                key={o.value}
                disabled={o.disabled}
                description={o.description}
                arrowIcon={false}
                extra={o.value === value ? <CheckOutline className="v-picker-sheet__check" /> : null}
                onClick={() => {
                  onSelect(o.value);
                  onClose();
                }}
              >
                {o.label}
              </List.Item>
            ))}
          </List>
        )}
      </div>
      {footer}
    </Popup>
  );
}
