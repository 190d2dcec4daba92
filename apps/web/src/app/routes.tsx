import { Navigate, type RouteObject } from 'react-router';
import HomePage from '../features/home/HomePage';
import { type PageName, pages, paths, TAB_PAGES } from '../shared/paths';
import { AppShell } from './AppShell';
import { RequireAuth } from './guard';
import { type LazyPage, lazyPage } from './lazy-page';
import { PageLayout } from './PageLayout';
import { pageAt, type RouteHandle } from './page-meta';
import { TabLayout } from './TabLayout';

type Page = LazyPage<object>;

// Home, the first screen of most visits, travels in the first chunk with the code it needs (one
// file instead of about fifteen small ones, docs/bench.md): no page chunk to wait for, and only
// the first screen's texts (locale-split.ts).
const Home = lazyPage(async () => ({ default: HomePage }), { firstScreen: true });

const LoginChoose = lazyPage(() => import('../features/user/LoginChoosePage'));
const Login = lazyPage(() => import('../features/user/LoginPage'));
const Register = lazyPage(() => import('../features/user/RegisterPage'));
const ForgetPassword = lazyPage(() => import('../features/user/ForgetPasswordPage'));

const Settings = lazyPage(() => import('../features/settings/SettingsPage'));
const Language = lazyPage(() => import('../features/settings/LanguagePage'));
const Account = lazyPage(() => import('../features/settings/AccountPage'));
const Security = lazyPage(() => import('../features/settings/SecurityPage'));
const ChangePassword = lazyPage(() => import('../features/settings/ChangePasswordPage'));
const ChangePayPassword = lazyPage(() => import('../features/settings/ChangePayPasswordPage'));

// (its texts are in the first part, as the market list's below)
const Assets = lazyPage(() => import('../features/wallet/AssetsPage'), { firstScreen: true });
const TradeAccount = lazyPage(() => import('../features/wallet/TradeAccountPage'));
const Transfer = lazyPage(() => import('../features/wallet/TransferPage'));
const TransferRecord = lazyPage(() => import('../features/wallet/TransferRecordPage'));
const Deposit = lazyPage(() => import('../features/wallet/DepositPage'));
const DepositCharge = lazyPage(() => import('../features/wallet/ChargePage'));
const DepositVip = lazyPage(() => import('../features/wallet/VipDepositPage'));
const Withdraw = lazyPage(() => import('../features/wallet/WithdrawPage'));
const WithdrawDetail = lazyPage(() => import('../features/wallet/WithdrawDetailPage'));
const WithdrawBank = lazyPage(() => import('../features/wallet/WithdrawBankPage'));
const Record = lazyPage(() => import('../features/wallet/RecordPage'));
const AddressList = lazyPage(() => import('../features/wallet/AddressListPage'));
const Address = lazyPage(() => import('../features/wallet/AddressPage'));
const AddressCreate = lazyPage(() => import('../features/wallet/AddressCreatePage'));
const BankCards = lazyPage(() => import('../features/wallet/BankCardsPage'));
const AddBank = lazyPage(() => import('../features/wallet/AddBankPage'));

const Verification = lazyPage(() => import('../features/verification/VerificationPage'));
const VerificationBasic = lazyPage(() => import('../features/verification/VerificationBasicPage'));
const VerificationAdvanced = lazyPage(() => import('../features/verification/VerificationAdvancedPage'));

// The market list, the chart page and the assets page (first-pages.ts) have all their texts in
// the first part: they open without the rest (checked in first-screen.test.tsx)
const MarketList = lazyPage(() => import('../features/market/MarketListPage'), { firstScreen: true });
const Kline = lazyPage(() => import('../features/market/KlinePage'), { firstScreen: true });
const Option = lazyPage(() => import('../features/option/OptionPage'));
const Lever = lazyPage(() => import('../features/contract/LeverPage'));
const Finance = lazyPage(() => import('../features/trust/FinancePage'));
const FinanceBuy = lazyPage(() => import('../features/trust/BuyPage'));
const FinanceOrders = lazyPage(() => import('../features/trust/OrdersPage'));
const FinanceRules = lazyPage(() => import('../features/trust/RulePage'));
const Publication = lazyPage(() => import('../features/launchpad/PublicationPage'));
const PublicationDetails = lazyPage(() => import('../features/launchpad/DetailsPage'));
const PublicationPurchase = lazyPage(() => import('../features/launchpad/PurchasePage'));

const Promotion = lazyPage(() => import('../features/promotion/PromotionPage'));
const HelpCenter = lazyPage(() => import('../features/help/HelpCenterPage'));
const HelpDetail = lazyPage(() => import('../features/help/HelpDetailPage'));
const Chat = lazyPage(() => import('../features/help/ChatPage'));
const Notices = lazyPage(() => import('../features/news/NoticesPage'));
const Notice = lazyPage(() => import('../features/news/NoticePage'));
const PreviewImage = lazyPage(() => import('../features/system/PreviewImagePage'));
const ChooseLocation = lazyPage<object>(() =>
  import('../features/system/LocationPage').then((m) => ({ default: m.ChooseLocationPage })),
);
const OpenLocation = lazyPage<object>(() =>
  import('../features/system/LocationPage').then((m) => ({ default: m.OpenLocationPage })),
);

// every route has its page: a route added to paths.ts without one does not compile
const PAGE_COMPONENTS: Record<PageName, Page> = {
  home: Home,
  homeAlias: Home,
  loginChoose: LoginChoose,
  login: Login,
  register: Register,
  forgetPassword: ForgetPassword,
  settings: Settings,
  language: Language,
  account: Account,
  security: Security,
  changePassword: ChangePassword,
  changePayPassword: ChangePayPassword,
  assets: Assets,
  tradeAccount: TradeAccount,
  transfer: Transfer,
  transferRecord: TransferRecord,
  deposit: Deposit,
  depositCharge: DepositCharge,
  depositVip: DepositVip,
  withdraw: Withdraw,
  withdrawDetail: WithdrawDetail,
  withdrawBank: WithdrawBank,
  record: Record,
  addressList: AddressList,
  address: Address,
  addressCreate: AddressCreate,
  bankCards: BankCards,
  addBank: AddBank,
  verification: Verification,
  verificationBasic: VerificationBasic,
  verificationAdvanced: VerificationAdvanced,
  trade: MarketList,
  kline: Kline,
  option: Option,
  lever: Lever,
  template: Finance,
  finance: Finance,
  financeBuy: FinanceBuy,
  financeOrders: FinanceOrders,
  financeRules: FinanceRules,
  publication: Publication,
  publicationDetails: PublicationDetails,
  publicationPurchase: PublicationPurchase,
  promotion: Promotion,
  helpCenter: HelpCenter,
  helpCenterAlias: HelpCenter,
  helpDetail: HelpDetail,
  chat: Chat,
  notices: Notices,
  notice: Notice,
  previewImage: PreviewImage,
  chooseLocation: ChooseLocation,
  openLocation: OpenLocation,
};

function pageRoute(name: PageName): RouteObject {
  const Component = PAGE_COMPONENTS[name];
  const handle: RouteHandle = { page: name };
  const element = pages[name].auth ? (
    <RequireAuth>
      <Component />
    </RequireAuth>
  ) : (
    <Component />
  );
  return { path: paths[name], handle, element };
}

const TAB_NAMES: readonly PageName[] = [...TAB_PAGES, 'homeAlias'];
const OTHER_NAMES = (Object.keys(paths) as PageName[]).filter((n) => !TAB_NAMES.includes(n));

/** Every route of spec §2; unknown paths go Home. */
export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      { element: <TabLayout />, children: TAB_NAMES.map(pageRoute) },
      { element: <PageLayout />, children: OTHER_NAMES.map(pageRoute) },
      { path: '*', element: <Navigate to={paths.home} replace /> },
    ],
  },
];

/**
 * Starts fetching the chunk of the page at `pathname` (the hash path the app opens on), so it
 * arrives together with the language files instead of after the first render asked for it.
 */
export function preloadPage(pathname: string): void {
  PAGE_COMPONENTS[pageAt(pathname) ?? 'home'].preload();
}
