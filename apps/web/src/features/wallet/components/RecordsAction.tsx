import { BillOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { NavBarIconButton } from '../../../shared/ui/NavBarAction';
import '../wallet.css';

/** The records icon at the right of the navigation bar, leading to this page's history. */
export function RecordsAction({ to, label }: { to: string; label: string }) {
  const navigate = useNavigate();
  return (
    <NavBarIconButton label={label} onClick={() => navigate(to)}>
      <BillOutline />
    </NavBarIconButton>
  );
}
