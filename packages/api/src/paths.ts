/** API paths, relative to /api, verbatim from spec §7. Method is POST unless the name says GET. */
export const API_BASE = '/api';

export const Paths = {
  // language and settings
  setLang: 'set/lang',
  getLang: 'get/lang',
  customerUrl: 'set/get_customer_url',
  smsOtherMail: 'set/sms_other_mail',
  areaCode: 'area_code',
  smsMail: 'sms_mail',
  smsSend: 'sms_send',
  // user
  register: 'user/register',
  login: 'user/login',
  logout: 'user/logout',
  center: 'user/center', // GET
  center2: 'user/center2', // GET
  nickname: 'user/nickname',
  changeLoginPassword: 'user/e_pwd',
  hasPassword: 'user/has_password',
  checkMobile: 'user/check_mobile',
  checkEmail: 'user/check_email',
  forget: 'user/forget',
  fundPassword: 'safe/update_password',
  // files
  upload: 'upload',
  // wallet (issue: ledger and wallet)
  walletList: 'wallet/list',
  walletDetail: 'wallet/detail',
  walletLegalLog: 'wallet/legal_log',
  walletChange: 'wallet/change',
  walletTransfers: 'wallet/hzhistory', // GET
  // not in spec §7: demo funds while the server runs on development deposit keys (GET: offered?)
  demoFunds: 'wallet/demo_funds',
  depositAddress: 'wallet/get_in_address',
  depositRequest: 'wallet/charge_req',
  withdrawInfo: 'wallet/get_info',
  withdrawAddresses: 'wallet/get_address',
  addWithdrawAddress: 'wallet/addaddress',
  deleteWithdrawAddress: 'wallet/deladdress',
  withdraw: 'wallet/out',
  depositLog: 'charge_mention/log2', // GET
  withdrawLog: 'charge_mention/log3', // GET
  currencies: 'wallet/currencies', // GET
  // bank cards and identity verification
  bankCards: 'user/cash_info',
  saveBankCard: 'user/cash_save',
  deleteBankCard: 'user/cash_delete',
  realName: 'user/real_name',
  realNameAdvanced: 'user/real_name2',
  verificationStatus: 'user/real_name_status', // GET
  // markets and market data (issue: markets and spot trading)
  quotations: 'currency/quotation_new', // GET
  candles: 'currency/new_timeshar', // GET
  deal: 'currency/deal', // GET
  favourites: 'currency/user_currency_list', // GET
  addFavourite: 'currency/user_currency_add',
  removeFavourite: 'currency/user_currency_remove',
  // spot orders: POST places, PUT cancels
  spotTrade: 'coin/trade',
  spotOrders: 'coin/list', // GET
  // timed options
  optionOrders: 'microtrade/lists', // GET
  optionSeconds: 'microtrade/seconds', // GET
  optionCurrencies: 'microtrade/payable_currencies', // GET
  optionSubmit: 'microtrade/submit',
  // locked deposit products (trust)
  trustReport: 'lh/deposit/report', // GET
  trustConfig: 'lh/deposit/config', // GET
  trustProduct: 'lh/deposit/product_info', // GET
  trustBuy: 'lh/deposit',
  trustOrders: 'lh/deposit/order', // GET
  trustCancel: 'lh/deposit/order/cancel',
  // new-coin subscription (launchpad)
  launchpadConfig: 'lh/send/config', // GET
  launchpadProject: 'lh/send/product_info', // GET
  launchpadOrder: 'lh/send/order',
  launchpadOrders: 'lh/send/order_list', // GET
  launchpadRecommend: 'lh/send/get_recommend', // GET
  // not in spec §7: taking allotted coins once unlocked ("a new coin is redeemable after launch")
  launchpadRedeem: 'lh/send/redeem',
  // notices (spec §7) and, not in spec §7, the user's personal messages
  newsList: 'news/list',
  newsDetail: 'news/detail',
  messages: 'news/messages',
  messagesUnread: 'news/messages/unread',
  messagesRead: 'news/messages/read',
} as const;

/** Operator API, relative to /api (operators are separate from users). */
export const AdminPaths = {
  login: 'admin/login',
  logout: 'admin/logout',
  me: 'admin/me', // GET
  users: 'admin/users', // GET
  balances: 'admin/balances', // GET ?user_id
  ledgerEntries: 'admin/ledger', // GET ?user_id
  deposits: 'admin/deposits', // GET ?status
  approveDeposit: 'admin/deposits/approve',
  rejectDeposit: 'admin/deposits/reject',
  withdrawals: 'admin/withdrawals', // GET ?status
  approveWithdrawal: 'admin/withdrawals/approve',
  rejectWithdrawal: 'admin/withdrawals/reject',
  verifications: 'admin/verifications', // GET ?status
  approveVerification: 'admin/verifications/approve',
  rejectVerification: 'admin/verifications/reject',
  upload: 'admin/upload', // GET admin/upload/:name
  audit: 'admin/audit', // GET
  password: 'admin/password', // change one's own password (also the forced first change)
  totpSetup: 'admin/totp/setup', // a new secret to enrol (only before enrolment)
  totpEnable: 'admin/totp/enable', // confirm enrolment with a first code
  totpVerify: 'admin/totp/verify', // the second factor at login
  operators: 'admin/operators', // GET
  createOperator: 'admin/operators/create',
  disableOperator: 'admin/operators/disable',
  resetOperatorPassword: 'admin/operators/reset_password',
  resetOperatorTotp: 'admin/operators/reset_totp',
  queues: 'admin/queues', // GET counts per review queue
  launchpadOrders: 'admin/launchpad', // GET ?status
  passLaunchpad: 'admin/launchpad/pass',
  rejectLaunchpad: 'admin/launchpad/reject',
  // users, dashboard and balance adjustments (issue 23)
  userDetail: 'admin/users/detail', // GET ?user_id
  userFreeze: 'admin/users/freeze',
  userUnfreeze: 'admin/users/unfreeze',
  dashboard: 'admin/dashboard', // GET
  ledgerCheck: 'admin/ledger/verify',
  adjustments: 'admin/adjustments', // GET ?status
  adjustmentRequest: 'admin/adjustments/request',
  adjustmentApprove: 'admin/adjustments/approve',
  adjustmentReject: 'admin/adjustments/reject',
  news: 'admin/news', // GET
  newsCreate: 'admin/news/create',
  newsEdit: 'admin/news/edit',
  newsPublish: 'admin/news/publish',
  newsUnpublish: 'admin/news/unpublish',
  newsDelete: 'admin/news/delete',
} as const;
export type PathName = keyof typeof Paths;
