import { BillOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { NavBarAction } from '../../../shared/ui/NavBarAction';
import '../wallet.css';

/** The records icon at the right of the navigation bar, leading to this page's history. */
export function RecordsAction({ to, label }: { to: string; label: string }) {
  const navigate = useNavigate();
  return (
    <NavBarAction>
      <button type="button" className="v-wallet-navbar-icon" aria-label={label} onClick={() => navigate(to)}>
        <BillOutline />
      </button>
    </NavBarAction>
  );
}
