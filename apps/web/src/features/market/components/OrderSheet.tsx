import type { MarketTicker, OrderSide } from '@verdant/api';
import { Popup } from 'antd-mobile';
import { OrderForm } from './OrderForm';

interface Props {
  market: MarketTicker;
  /** The side the sheet is open at; null: closed. */
  side: OrderSide | null;
  onSide: (side: OrderSide) => void;
  onClose: () => void;
  pickedPrice: string | null;
  onPlaced: () => void;
}

/**
 * The buy/sell sheet. Its own chunk (the popup, the form, decimal arithmetic): the chart page
 * loads it after its first paint, and a visitor, who is sent to log in, never needs it.
 */
export default function OrderSheet({ market, side, onSide, onClose, pickedPrice, onPlaced }: Props) {
  return (
    <Popup
      visible={side !== null}
      onMaskClick={onClose}
      onClose={onClose}
      bodyClassName="v-market-kline__sheet"
      destroyOnClose
    >
      {side && (
        <OrderForm
          market={market}
          side={side}
          onSide={onSide}
          pickedPrice={pickedPrice}
          onPlaced={onPlaced}
        />
      )}
    </Popup>
  );
}
